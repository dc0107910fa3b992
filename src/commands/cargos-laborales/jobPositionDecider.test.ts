// Given job position events / when a command / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { jobPositionDecider } from './jobPositionDecider.js';
import type { JobPositionCommand, JobPositionEvent, JobPositionFields } from './jobPositionEvents.js';

const given = scenario(jobPositionDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends JobPositionCommand['type']>(type: T, data: Extract<JobPositionCommand, { type: T }>['data']): JobPositionCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'p1', tenantId: 't1' }) as JobPositionCommand;

const nurse: JobPositionFields = {
  code: 'ENF',
  name: 'Nurse',
  clinical: true,
  licenceRequired: true,
  licensingBody: 'CEP',
  suggestedRoles: ['nurse'],
};
const created = (fields: Partial<JobPositionFields> = {}): JobPositionEvent => ({
  type: 'JobPositionCreated',
  data: { positionId: 'p1', ...nurse, ...fields, status: 'active' },
});

describe('job position decider', () => {
  it('creates a position, trimming its texts', () => {
    given()
      .when(cmd('CreateJobPosition', { ...nurse, code: ' ENF ', name: ' Nurse ' }))
      .then(created());
  });

  it('refuses a licence requirement without a licensing body, and a role listed twice', () => {
    given()
      .when(cmd('CreateJobPosition', { ...nurse, licensingBody: undefined, suggestedRoles: ['nurse', 'nurse'] }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['licensingBody', 'suggestedRoles']));
  });

  it("marks a physician's position only when it is clinical and requires a licence", () => {
    given()
      .when(cmd('CreateJobPosition', { ...nurse, code: 'NEF', physician: true }))
      .then({ type: 'JobPositionCreated', data: { positionId: 'p1', ...nurse, code: 'NEF', physician: true, status: 'active' } });
    given()
      .when(cmd('CreateJobPosition', { ...nurse, licenceRequired: false, licensingBody: undefined, physician: true }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['physician']));
    given(created({ physician: true }))
      .when(cmd('CorrectJobPosition', { clinical: false }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['physician']));
  });

  it('refuses to create the same position twice', () => {
    given(created()).when(cmd('CreateJobPosition', nurse)).thenError('already-exists');
  });

  it('corrects only what changed, remembering the previous values', () => {
    given(created())
      .when(cmd('CorrectJobPosition', { name: 'Dialysis nurse', clinical: true, licenceRequired: false, licensingBody: null }))
      .then({
        type: 'JobPositionCorrected',
        data: {
          changes: { name: 'Dialysis nurse', licenceRequired: false, licensingBody: null },
          previous: { name: 'Nurse', licenceRequired: true, licensingBody: 'CEP' },
        },
      });
    given(created())
      .when(cmd('CorrectJobPosition', { name: 'Nurse' }))
      .then();
  });

  it('refuses a correction that leaves a required licence without its body', () => {
    given(created())
      .when(cmd('CorrectJobPosition', { licensingBody: null }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['licensingBody']));
  });

  it('deactivates and reactivates with a reason, once each', () => {
    const deactivated: JobPositionEvent = { type: 'JobPositionDeactivated', data: { reason: 'merged' } };
    given(created())
      .when(cmd('DeactivateJobPosition', { reason: ' merged ' }))
      .then(deactivated);
    given(created(), deactivated)
      .when(cmd('DeactivateJobPosition', { reason: 'again' }))
      .thenError('position-inactive');
    given(created(), deactivated)
      .when(cmd('ReactivateJobPosition', { reason: 'needed' }))
      .then({ type: 'JobPositionReactivated', data: { reason: 'needed' } });
    given(created())
      .when(cmd('ReactivateJobPosition', { reason: 'x' }))
      .thenError('position-active');
    given(created())
      .when(cmd('DeactivateJobPosition', { reason: '  ' }))
      .thenError('validation-failed');
  });

  it('answers not-found for a position that does not exist', () => {
    given()
      .when(cmd('DeactivateJobPosition', { reason: 'x' }))
      .thenError('not-found');
    given()
      .when(cmd('CorrectJobPosition', { name: 'x' }))
      .thenError('not-found');
  });
});
