import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { patientDecider } from './patientDecider.js';
import { command, registered, registration } from './patientFixtures.js';

const given = scenario(patientDecider);

describe('patient decider: registration and corrections', () => {
  it('registers a patient as active, deriving isolation from the serology', () => {
    const serology = [{ test: 'HBsAg' as const, result: 'positive' as const, sampleDate: '2025-01-15' }];
    given()
      .when(command('RegisterPatient', { ...registration, serology }))
      .then(registered({ serology, isolation: ['HBV'] }));
  });

  it('refuses implausible data, naming every field at once', () => {
    given()
      .when(command('RegisterPatient', { ...registration, dryWeightKg: 400, birthDate: '2030-01-01', admissionDate: '2025-04-01' }))
      .thenError('validation-failed', (e) => {
        assert.equal(e.status, 422);
        assert.deepEqual(failedFields(e).sort(), ['admissionDate', 'birthDate', 'dryWeightKg']);
      });
  });

  it('refuses a weight with two decimals and an admission before birth', () => {
    given()
      .when(command('RegisterPatient', { ...registration, dryWeightKg: 62.55, admissionDate: '1950-01-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e).sort(), ['admissionDate', 'dryWeightKg']));
  });

  it('refuses a birth date more than 130 years ago and a date that does not exist', () => {
    given()
      .when(command('RegisterPatient', { ...registration, birthDate: '1890-01-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['birthDate']));
    given()
      .when(command('RegisterPatient', { ...registration, birthDate: '1961-02-30' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['birthDate']));
  });

  it('refuses the same allergy listed twice and a coverage ending before it starts', () => {
    given()
      .when(
        command('RegisterPatient', {
          ...registration,
          allergies: [
            { allergyId: 'a1', substance: 'Penicilina' },
            { allergyId: 'a2', substance: 'penicilina ' },
          ],
          coverages: [{ coverageId: 'c1', payerName: 'EsSalud', memberNumber: '1', validFrom: '2025-01-01', validTo: '2024-12-31' }],
        }),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e).sort(), ['allergies/1/substance', 'coverages/0/validTo']));
  });

  it('records only the fields a correction changes, with their previous values', () => {
    given(registered())
      .when(command('CorrectPatientData', { givenNames: 'María José', familyNames: 'Quispe Mamani', etiology: null }))
      .then({
        type: 'PatientDataCorrected',
        data: {
          changes: { familyNames: 'Quispe Mamani', etiology: null },
          previous: { familyNames: 'Quispe Huamán', etiology: 'diabetic nephropathy' },
        },
      });
  });

  it('decides nothing for a correction that changes nothing', () => {
    given(registered())
      .when(command('CorrectPatientData', { givenNames: 'María José' }))
      .then();
  });

  it('checks the corrected record as a whole: admission may not precede a corrected birth date', () => {
    given(registered())
      .when(command('CorrectPatientData', { birthDate: '2024-12-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['admissionDate']));
  });

  it('answers not-found for commands on a patient that does not exist', () => {
    given()
      .when(command('CorrectPatientData', { givenNames: 'X' }))
      .thenError('not-found', (e) => assert.equal(e.status, 404));
  });
});

describe('patient decider: status', () => {
  it('changes status with a reason, keeping where it came from', () => {
    given(registered())
      .when(command('ChangePatientStatus', { status: 'hospitalized', reason: 'pneumonia', effectiveDate: '2025-03-09' }))
      .then({
        type: 'PatientStatusChanged',
        data: { status: 'hospitalized', previousStatus: 'active', reason: 'pneumonia', effectiveDate: '2025-03-09' },
      });
  });

  it('treats deceased as terminal', () => {
    const died = {
      type: 'PatientStatusChanged' as const,
      data: { status: 'deceased' as const, previousStatus: 'active' as const, reason: 'cardiac arrest', effectiveDate: '2025-03-01' },
    };
    given(registered(), died)
      .when(command('ChangePatientStatus', { status: 'active', reason: 'mistake' }))
      .thenError('invalid-status-transition', (e) => assert.deepEqual(e.details?.allowed, []));
    given(registered(), died)
      .when(command('PrescribeDryWeight', { dryWeightKg: 60 }))
      .thenError('patient-deceased');
  });

  it('refuses a change to the same status and a transferred patient becoming hospitalized', () => {
    given(registered())
      .when(command('ChangePatientStatus', { status: 'active', reason: 'x' }))
      .thenError('invalid-status-transition');
    const transferred = {
      type: 'PatientStatusChanged' as const,
      data: { status: 'transferred' as const, previousStatus: 'active' as const, reason: 'moved', effectiveDate: '2025-03-01' },
    };
    given(registered(), transferred)
      .when(command('ChangePatientStatus', { status: 'hospitalized', reason: 'x' }))
      .thenError('invalid-status-transition');
  });
});

describe('patient decider: dry weight, serology, allergies, coverage', () => {
  it('prescribes a dry weight, remembering the previous one', () => {
    given(registered())
      .when(command('PrescribeDryWeight', { dryWeightKg: 61, prescribedBy: 'Dr. Ruiz' }))
      .then({
        type: 'DryWeightPrescribed',
        data: { dryWeightKg: 61, previousDryWeightKg: 62.5, effectiveDate: '2025-03-10', prescribedBy: 'Dr. Ruiz' },
      });
  });

  it('requires isolation when anti-HCV turns positive and lifts nothing for an indeterminate HBsAg', () => {
    given(registered())
      .when(command('RecordSerology', { test: 'antiHCV', result: 'positive', sampleDate: '2025-03-01' }))
      .then(
        { type: 'SerologyRecorded', data: { test: 'antiHCV', result: 'positive', sampleDate: '2025-03-01' } },
        { type: 'PatientIsolationChanged', data: { isolation: ['HCV'], previousIsolation: [] } },
      );
    given(registered())
      .when(command('RecordSerology', { test: 'HBsAg', result: 'indeterminate', sampleDate: '2025-03-01' }))
      .then({ type: 'SerologyRecorded', data: { test: 'HBsAg', result: 'indeterminate', sampleDate: '2025-03-01' } });
  });

  it('lets an older result not override a newer one', () => {
    const hbv = registered({ serology: [{ test: 'HBsAg', result: 'positive', sampleDate: '2025-02-01' }], isolation: ['HBV'] });
    given(hbv)
      .when(command('RecordSerology', { test: 'HBsAg', result: 'negative', sampleDate: '2024-06-01' }))
      .then({ type: 'SerologyRecorded', data: { test: 'HBsAg', result: 'negative', sampleDate: '2024-06-01' } });
  });

  it('refuses a titre on a test other than anti-HBs and a sample date in the future', () => {
    given(registered())
      .when(command('RecordSerology', { test: 'HIV', result: 'negative', sampleDate: '2025-04-01', titer: 12 }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e).sort(), ['sampleDate', 'titer']));
  });

  it('refuses an allergy already recorded, whatever its case or accents', () => {
    const given1 = given(registered({ allergies: [{ allergyId: 'a1', substance: 'Látex' }] }));
    given1.when(command('RecordAllergy', { allergyId: 'a2', substance: 'latex' })).thenError('allergy-already-recorded');
  });

  it('adds and ends a coverage; ending it twice is refused', () => {
    const coverage = { coverageId: 'c1', payerName: 'SIS', memberNumber: 'A-1', validFrom: '2025-01-01' };
    given(registered()).when(command('AddCoverage', coverage)).then({ type: 'CoverageAdded', data: coverage });
    const ended = { type: 'CoverageEnded' as const, data: { coverageId: 'c1', endDate: '2025-02-28', reason: 'plan changed' } };
    given(registered(), { type: 'CoverageAdded', data: coverage })
      .when(command('EndCoverage', { coverageId: 'c1', endDate: '2025-02-28', reason: 'plan changed' }))
      .then(ended);
    given(registered(), { type: 'CoverageAdded', data: coverage }, ended)
      .when(command('EndCoverage', { coverageId: 'c1', endDate: '2025-03-01', reason: 'again' }))
      .thenError('coverage-already-ended');
  });

  it('refuses a coverage without a payer', () => {
    given(registered())
      .when(command('AddCoverage', { coverageId: 'c1', memberNumber: '1', validFrom: '2025-01-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['clientId']));
  });
});
