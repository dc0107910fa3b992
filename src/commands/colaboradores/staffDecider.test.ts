// Given staff events / when a command / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { staffDecider } from './staffDecider.js';
import type { HireStaffData, StaffCommand, StaffEvent } from './staffEvents.js';
import type { Licence, PositionFacts } from './staffTypes.js';

const given = scenario(staffDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends StaffCommand['type']>(type: T, data: Extract<StaffCommand, { type: T }>['data']): StaffCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 's1', tenantId: 't1' }) as StaffCommand;

const licensed: PositionFacts = { status: 'active', clinical: true, licenceRequired: true };
const unlicensed: PositionFacts = { status: 'active', clinical: false, licenceRequired: false };
const licence: Licence = { body: 'CEP', number: '12345', expiresOn: '2026-01-31' };
const personal = {
  document: { type: 'DNI' as const, number: '41234567' },
  givenNames: 'Rosa',
  familyNames: 'Mamani',
  hireDate: '2024-01-15',
  contractType: 'planilla' as const,
};
const hire = (overrides: Partial<HireStaffData> = {}): StaffCommand =>
  cmd('HireStaff', { ...personal, positionId: 'p1', position: licensed, licence, ...overrides });
const hired: StaffEvent = {
  type: 'StaffHired',
  data: { staffId: 's1', ...personal, positionId: 'p1', status: 'active', serology: [], hbvVaccination: [] },
};
const licenceRegistered: StaffEvent = { type: 'StaffLicenseRegistered', data: licence };
const terminated: StaffEvent = { type: 'StaffTerminated', data: { terminationDate: '2025-02-28', reason: 'resigned' } };

describe('staff decider', () => {
  it('hires with the licence and the user link as their own events', () => {
    given()
      .when(hire({ userId: 'u9' }))
      .then(hired, licenceRegistered, { type: 'StaffLinkedToUser', data: { userId: 'u9', previousUserId: null } });
  });

  it('refuses an unknown or inactive position, naming positionId', () => {
    given()
      .when(hire({ position: null }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['positionId']));
    given()
      .when(hire({ position: { ...licensed, status: 'inactive' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['positionId']));
  });

  it('requires a licence when the position does, naming licence', () => {
    given()
      .when(hire({ licence: undefined }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['licence']));
    given()
      .when(hire({ licence: undefined, position: unlicensed }))
      .then(hired);
  });

  it('refuses future serology and vaccination dates and a dose listed twice', () => {
    given()
      .when(
        hire({
          serology: [{ test: 'HBsAg', result: 'negative', takenOn: '2999-01-01' }],
          hbvVaccination: [
            { dose: 1, givenOn: '2020-01-01' },
            { dose: 1, givenOn: '2020-02-01' },
          ],
        }),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['serology/0/takenOn', 'hbvVaccination/1/dose']));
  });

  it('corrects only what changed, remembering the previous values', () => {
    given(hired)
      .when(cmd('CorrectStaffData', { givenNames: 'Rosa Elena', familyNames: 'Mamani', profession: 'Nurse' }))
      .then({
        type: 'StaffDataCorrected',
        data: { changes: { givenNames: 'Rosa Elena', profession: 'Nurse' }, previous: { givenNames: 'Rosa', profession: null } },
      });
    given(hired)
      .when(cmd('CorrectStaffData', { givenNames: 'Rosa' }))
      .then();
  });

  it('registers a licence, then renews it; an earlier expiry is refused', () => {
    given(hired).when(cmd('RegisterStaffLicence', licence)).then(licenceRegistered);
    const renewed = { ...licence, expiresOn: '2028-01-31' };
    given(hired, licenceRegistered)
      .when(cmd('RegisterStaffLicence', renewed))
      .then({ type: 'StaffLicenseRenewed', data: { ...renewed, previous: licence } });
    given(hired, licenceRegistered)
      .when(cmd('RegisterStaffLicence', { ...licence, expiresOn: '2025-01-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['expiresOn']));
    given(hired, licenceRegistered).when(cmd('RegisterStaffLicence', licence)).then();
  });

  it('records serology and vaccine doses, each dose once', () => {
    given(hired)
      .when(cmd('RecordStaffSerology', { test: 'antiHBs', result: 'positive', takenOn: '2025-02-01' }))
      .then({ type: 'StaffSerologyRecorded', data: { test: 'antiHBs', result: 'positive', takenOn: '2025-02-01' } });
    const dose: StaffEvent = { type: 'StaffVaccinationRecorded', data: { dose: 1, givenOn: '2024-02-01' } };
    given(hired)
      .when(cmd('RecordStaffVaccination', { dose: 1, givenOn: '2024-02-01' }))
      .then(dose);
    given(hired, dose)
      .when(cmd('RecordStaffVaccination', { dose: 1, givenOn: '2024-03-01' }))
      .thenError('dose-already-recorded');
  });

  it('changes position only to an active one whose licence requirement is met', () => {
    given(hired, licenceRegistered)
      .when(cmd('ChangeStaffPosition', { positionId: 'p2', position: licensed }))
      .then({ type: 'StaffPositionChanged', data: { positionId: 'p2', previousPositionId: 'p1', effectiveDate: '2025-03-01' } });
    given(hired)
      .when(cmd('ChangeStaffPosition', { positionId: 'p2', position: licensed }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['licence']));
    given(hired)
      .when(cmd('ChangeStaffPosition', { positionId: 'p2', position: { ...unlicensed, status: 'inactive' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['positionId']));
    given(hired)
      .when(cmd('ChangeStaffPosition', { positionId: 'p1', position: licensed }))
      .then();
  });

  it('links a user, relinks another one, and ignores the same link', () => {
    const linked: StaffEvent = { type: 'StaffLinkedToUser', data: { userId: 'u1', previousUserId: null } };
    given(hired)
      .when(cmd('LinkStaffToUser', { userId: 'u1' }))
      .then(linked);
    given(hired, linked)
      .when(cmd('LinkStaffToUser', { userId: 'u2' }))
      .then({ type: 'StaffLinkedToUser', data: { userId: 'u2', previousUserId: 'u1' } });
    given(hired, linked)
      .when(cmd('LinkStaffToUser', { userId: 'u1' }))
      .then();
  });

  it('terminates once, not before the hire date nor in the future; afterwards only corrections', () => {
    given(hired)
      .when(cmd('TerminateStaff', { terminationDate: '2025-02-28', reason: ' resigned ' }))
      .then(terminated);
    given(hired)
      .when(cmd('TerminateStaff', { terminationDate: '2023-01-01', reason: 'x' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['terminationDate']));
    given(hired)
      .when(cmd('TerminateStaff', { terminationDate: '2999-01-01', reason: 'x' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['terminationDate']));
    given(hired, terminated)
      .when(cmd('TerminateStaff', { terminationDate: '2025-02-28', reason: 'x' }))
      .thenError('staff-terminated');
    given(hired, terminated).when(cmd('RegisterStaffLicence', licence)).thenError('staff-terminated');
    given(hired, terminated)
      .when(cmd('LinkStaffToUser', { userId: 'u1' }))
      .thenError('staff-terminated');
    given(hired, terminated)
      .when(cmd('CorrectStaffData', { hireDate: '2025-03-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['hireDate']));
    given(hired, terminated)
      .when(cmd('CorrectStaffData', { familyNames: 'Mamani Quispe' }))
      .then({ type: 'StaffDataCorrected', data: { changes: { familyNames: 'Mamani Quispe' }, previous: { familyNames: 'Mamani' } } });
  });

  it('rehires a terminated record from the termination date on, in an active position', () => {
    const rehire = (hireDate: string, position: PositionFacts = licensed) =>
      cmd('RehireStaff', { hireDate, positionId: 'p2', position, reason: ' back ' });
    given(hired, licenceRegistered, terminated)
      .when(rehire('2025-03-01'))
      .then({
        type: 'StaffRehired',
        data: {
          hireDate: '2025-03-01',
          previousHireDate: '2024-01-15',
          previousTerminationDate: '2025-02-28',
          positionId: 'p2',
          reason: 'back',
        },
      });
    given(hired, licenceRegistered, terminated)
      .when(rehire('2025-02-01', { ...licensed, status: 'inactive' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['hireDate', 'positionId']));
    given(hired).when(rehire('2025-03-01')).thenError('staff-not-terminated');
    const back: StaffEvent = {
      type: 'StaffRehired',
      data: {
        hireDate: '2025-03-01',
        previousHireDate: '2024-01-15',
        previousTerminationDate: '2025-02-28',
        positionId: 'p2',
        reason: 'back',
      },
    };
    given(hired, licenceRegistered, terminated, back)
      .when(cmd('RecordStaffVaccination', { dose: 1, givenOn: '2025-02-01' }))
      .then({ type: 'StaffVaccinationRecorded', data: { dose: 1, givenOn: '2025-02-01' } });
  });

  it('answers not-found for a record that does not exist', () => {
    given()
      .when(cmd('TerminateStaff', { terminationDate: '2025-01-01', reason: 'x' }))
      .thenError('not-found');
  });
});
