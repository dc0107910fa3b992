// Given prescription events / when a command / then events or a refusal: versions, supersession, discontinuation.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { prescriptionDecider } from './prescriptionDecider.js';
import type { PrescriberFacts, PrescriptionCommand, PrescriptionEvent, PrescriptionFields } from './prescriptionEvents.js';
import { evolvePrescription, initialPrescriptionState, versionInForce } from '../shared/prescriptionState.js';

const given = scenario(prescriptionDecider);
const T0 = '2025-03-03T08:00:00.000Z';
const active = { exists: true, status: 'active' };
const physician: PrescriberFacts = { userId: 'u-doc', staffId: 'st-doc', allowed: true, reasons: [] };

const fields = (overrides: Partial<PrescriptionFields> = {}): PrescriptionFields => ({
  modality: 'HD',
  durationMinutes: 240,
  frequencyPerWeek: 3,
  dryWeightKg: 62.5,
  ufGoalRule: 'pre-weight minus dry weight plus 0.3 L',
  qbMlMin: 350,
  qdMlMin: 500,
  dialyzer: { model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone' },
  dialysate: {
    acidConcentrateCode: 'AC-2K',
    sodiumMmolL: 138,
    potassiumMmolL: 2,
    calciumMmolL: 1.25,
    magnesiumMmolL: 0.5,
    bicarbonateMmolL: 32,
    glucoseMgDl: 100,
    temperatureC: 36,
  },
  anticoagulation: { kind: 'ufh', bolusUnits: 2000, hourlyUnits: 1000, stopMinutesBeforeEnd: 60 },
  needles: { arterialGauge: 15, venousGauge: 15, cannulationTechnique: 'rope-ladder' },
  medications: [{ drug: 'Epoetin alfa', dose: 4000, unit: 'IU', route: 'iv-venous-line', frequency: 'every session' }],
  validFrom: '2025-03-01',
  ...overrides,
});

const issue = (overrides: Partial<PrescriptionFields> = {}, extra: Record<string, unknown> = {}): PrescriptionCommand => ({
  type: 'IssuePrescription',
  data: { ...fields(overrides), patient: active, prescriber: physician, ...extra },
  at: T0,
  actor: 'u-doc',
  aggregateId: 'p1',
  tenantId: 't1',
});

const discontinueCmd = (from: string, reason = 'transplanted', patient = active, prescriber = physician): PrescriptionCommand => ({
  type: 'DiscontinuePrescription',
  data: { from, reason, patient, prescriber },
  at: T0,
  actor: 'u-doc',
  aggregateId: 'p1',
  tenantId: 't1',
});

const issued = (version: number, overrides: Partial<PrescriptionFields> = {}): PrescriptionEvent => ({
  type: 'PrescriptionIssued',
  data: {
    ...fields(overrides),
    patientId: 'p1',
    version,
    supersedes: version > 1 ? version - 1 : null,
    prescribedBy: { userId: 'u-doc', staffId: 'st-doc' },
    issuedAt: T0,
  },
});

describe('Prescription decider', () => {
  it('issues version 1 with every field, the caller as prescriber and no predecessor; the dry weight is left to the patient', () => {
    const { dryWeightKg: _onThePatient, ...prescribed } = fields();
    given()
      .when(issue())
      .then({
        type: 'PrescriptionIssued',
        data: {
          ...prescribed,
          patientId: 'p1',
          version: 1,
          supersedes: null,
          prescribedBy: { userId: 'u-doc', staffId: 'st-doc' },
          issuedAt: T0,
        },
      });
  });

  it('issues version n+1 superseding n; the old one ends the day before and stays in the history', () => {
    const [event] = given(issued(1))
      .when(issue({ validFrom: '2025-04-01', dryWeightKg: 61 }))
      .events();
    assert.deepEqual([event!.data.version, (event!.data as { supersedes: number }).supersedes], [2, 1]);
    const state = [issued(1), event!].reduce(evolvePrescription, initialPrescriptionState);
    assert.deepEqual(
      state.versions.map((v) => [v.version, v.effectiveTo, v.supersededBy]),
      [
        [1, '2025-03-31', 2],
        [2, null, null],
      ],
    );
    assert.equal(versionInForce(state, '2025-03-31')?.version, 1);
    // One dry weight (issue 21 item 4): the writes record 61 kg on the patient; the version keeps no copy.
    assert.equal(versionInForce(state, '2025-04-01')?.dryWeightKg, undefined);
    assert.equal(versionInForce(state, '2025-02-28'), null);
  });

  it('keeps an earlier validTo of the old version: a gap has no prescription in force', () => {
    const history = [issued(1, { validTo: '2025-03-15' }), issued(2, { validFrom: '2025-04-01' })];
    const state = history.reduce(evolvePrescription, initialPrescriptionState);
    assert.equal(state.versions[0]!.effectiveTo, '2025-03-15');
    assert.equal(versionInForce(state, '2025-03-20'), null);
  });

  it('refuses a validFrom before the previous version’s validFrom (409); the same day is allowed', () => {
    given(issued(1, { validFrom: '2025-03-10' }))
      .when(issue({ validFrom: '2025-03-09' }))
      .thenError('valid-from-before-previous-version');
    assert.equal(
      given(issued(1, { validFrom: '2025-03-10' }))
        .when(issue({ validFrom: '2025-03-10' }))
        .events().length,
      1,
    );
  });

  it('refuses an absent patient (404), a deceased, discharged or otherwise inactive one (409)', () => {
    given()
      .when(issue({}, { patient: { exists: false, status: 'active' } }))
      .thenError('not-found');
    given()
      .when(issue({}, { patient: { exists: true, status: 'deceased' } }))
      .thenError('patient-deceased');
    given()
      .when(issue({}, { patient: { exists: true, status: 'discharged' } }))
      .thenError('patient-discharged');
    given()
      .when(issue({}, { patient: { exists: true, status: 'hospitalized' } }))
      .thenError('patient-inactive');
  });

  it('refuses a caller who may not sign clinical records (403, with the reasons)', () => {
    const unlicensed = { userId: 'u-doc', staffId: 'st-doc', allowed: false, reasons: ['licence-expired'] };
    given()
      .when(issue({}, { prescriber: unlicensed }))
      .thenError('prescriber-may-not-sign', (e) => {
        assert.equal(e.status, 403);
        assert.deepEqual(e.details?.reasons, ['licence-expired']);
      });
    const noStaff = { userId: 'u-doc', staffId: null, allowed: false, reasons: ['no-staff-record'] };
    given()
      .when(issue({}, { prescriber: noStaff }))
      .thenError('prescriber-may-not-sign');
  });

  it('refuses validTo before validFrom and a dry weight with two decimals, naming each field (422)', () => {
    given()
      .when(issue({ validTo: '2025-02-28', dryWeightKg: 62.55 }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e).sort(), ['dryWeightKg', 'validTo']));
    assert.equal(
      given()
        .when(issue({ validTo: '2025-03-01' }))
        .events().length,
      1,
    );
  });

  it('needs a reason for no anticoagulation, and only the details of the kind chosen', () => {
    given()
      .when(issue({ anticoagulation: { kind: 'none' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['anticoagulation/reason']));
    given()
      .when(issue({ anticoagulation: { kind: 'none', reason: '  ' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['anticoagulation/reason']));
    given()
      .when(issue({ anticoagulation: { kind: 'lmwh', drug: 'Enoxaparin', dose: 40, unit: 'mg', hourlyUnits: 500 } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['anticoagulation/hourlyUnits']));
    given()
      .when(issue({ anticoagulation: { kind: 'ufh', bolusUnits: 2000, hourlyUnits: 1000, stopMinutesBeforeEnd: 240 } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['anticoagulation/stopMinutesBeforeEnd']));
    const [none] = given()
      .when(issue({ anticoagulation: { kind: 'none', reason: ' active bleeding ' } }))
      .events();
    assert.deepEqual((none!.data as PrescriptionFields).anticoagulation, { kind: 'none', reason: 'active bleeding' });
  });

  it('discontinues the latest version from a date: not in force from then on', () => {
    given(issued(1))
      .when(discontinueCmd('2025-05-01'))
      .then({
        type: 'PrescriptionDiscontinued',
        data: { version: 1, from: '2025-05-01', reason: 'transplanted', discontinuedAt: T0, by: { userId: 'u-doc', staffId: 'st-doc' } },
      });
    const state = [issued(1), ...given(issued(1)).when(discontinueCmd('2025-05-01')).events()].reduce(
      evolvePrescription,
      initialPrescriptionState,
    );
    assert.equal(versionInForce(state, '2025-04-30')?.version, 1);
    assert.equal(versionInForce(state, '2025-05-01'), null);
  });

  it('refuses a discontinuation by anyone but a physician allowed to sign (issue 20 item 7: it is prescribing too)', () => {
    const nurse = { userId: 'u-nurse', staffId: 'st-nurse', allowed: false, reasons: ['position-not-physician'] };
    given(issued(1))
      .when(discontinueCmd('2025-05-01', 'transplanted', active, nurse))
      .thenError('prescriber-may-not-sign', (e) => assert.deepEqual(e.details?.reasons, ['position-not-physician']));
  });

  it('refuses to discontinue nothing, twice, before validFrom, or after the version ended', () => {
    given().when(discontinueCmd('2025-05-01')).thenError('no-prescription');
    given()
      .when(discontinueCmd('2025-05-01', 'x', { exists: false, status: 'active' }))
      .thenError('not-found');
    const discontinued: PrescriptionEvent = {
      type: 'PrescriptionDiscontinued',
      data: { version: 1, from: '2025-05-01', reason: 'x', discontinuedAt: T0 },
    };
    given(issued(1), discontinued).when(discontinueCmd('2025-06-01')).thenError('prescription-discontinued');
    given(issued(1))
      .when(discontinueCmd('2025-02-01'))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['from']));
    given(issued(1, { validTo: '2025-03-31' }))
      .when(discontinueCmd('2025-04-02'))
      .thenError('prescription-ended');
  });

  it('issues a new version after a discontinuation; the discontinued one keeps its end', () => {
    const discontinued: PrescriptionEvent = {
      type: 'PrescriptionDiscontinued',
      data: { version: 1, from: '2025-05-01', reason: 'hospitalized', discontinuedAt: T0 },
    };
    const events = given(issued(1), discontinued)
      .when(issue({ validFrom: '2025-06-01' }))
      .events();
    const state = [issued(1), discontinued, ...events].reduce(evolvePrescription, initialPrescriptionState);
    assert.deepEqual(
      state.versions.map((v) => [v.version, v.effectiveTo]),
      [
        [1, '2025-04-30'],
        [2, null],
      ],
    );
    assert.equal(versionInForce(state, '2025-05-15'), null);
  });
});
