// Every rule about a job position. Pure: time and ids come in with the command.
import { fieldChanges } from '../shared/fieldChanges.js';
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import {
  CORRECTABLE_POSITION_FIELDS,
  type JobPositionCommand,
  type JobPositionEvent,
  type JobPositionFields,
  type JobPositionPatch,
  type PositionStatus,
  JOB_POSITION_CATEGORY,
} from './jobPositionEvents.js';

export interface JobPositionState {
  exists: boolean;
  status: PositionStatus;
  fields: JobPositionFields | null;
}

export const initialJobPositionState: JobPositionState = { exists: false, status: 'active', fields: null };

function applyPatch(current: JobPositionFields, patch: JobPositionPatch): JobPositionFields {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as unknown as JobPositionFields;
}

function checkFields(f: JobPositionFields): void {
  const checks = new FieldChecks();
  checks.check(f.code.trim().length > 0, 'code', 'must not be blank');
  checks.check(f.name.trim().length > 0, 'name', 'must not be blank');
  checks.check(!f.licenceRequired || Boolean(f.licensingBody?.trim()), 'licensingBody', 'is required when licenceRequired is true');
  checks.check(!f.physician || (f.clinical && f.licenceRequired), 'physician', 'a physician position is clinical and requires a licence');
  checks.check(new Set(f.suggestedRoles).size === f.suggestedRoles.length, 'suggestedRoles', 'lists a role twice');
  checks.throwIfAny();
}

const trimmed = (f: JobPositionFields): JobPositionFields => ({
  ...f,
  code: f.code.trim(),
  name: f.name.trim(),
  ...(f.licensingBody !== undefined ? { licensingBody: f.licensingBody.trim() } : {}),
});

function existing(state: JobPositionState): JobPositionState & { fields: JobPositionFields } {
  if (!state.exists || !state.fields) throw notFound('job position');
  return state as JobPositionState & { fields: JobPositionFields };
}

function decideCorrection(patch: JobPositionPatch, state: JobPositionState): JobPositionEvent[] {
  const current = existing(state).fields;
  const diff = fieldChanges(current, patch, CORRECTABLE_POSITION_FIELDS);
  if (!diff) return [];
  const { changes, previous } = diff;
  checkFields(applyPatch(current, changes));
  return [{ type: 'JobPositionCorrected', data: { changes, previous } }];
}

const reasonOf = (reason: string): string => {
  new FieldChecks().check(reason.trim().length > 0, 'reason', 'must not be blank').throwIfAny();
  return reason.trim();
};

export function decideJobPosition(command: JobPositionCommand, state: JobPositionState): JobPositionEvent[] {
  switch (command.type) {
    case 'CreateJobPosition': {
      if (state.exists) throw new DomainError('already-exists', 'this job position already exists', 409);
      checkFields(command.data);
      return [{ type: 'JobPositionCreated', data: { positionId: command.aggregateId, ...trimmed(command.data), status: 'active' } }];
    }
    case 'CorrectJobPosition':
      return decideCorrection(command.data, state);
    case 'DeactivateJobPosition': {
      const s = existing(state);
      if (s.status === 'inactive') throw rule('position-inactive', 'the job position is already inactive');
      return [{ type: 'JobPositionDeactivated', data: { reason: reasonOf(command.data.reason) } }];
    }
    case 'ReactivateJobPosition': {
      const s = existing(state);
      if (s.status === 'active') throw rule('position-active', 'the job position is already active');
      return [{ type: 'JobPositionReactivated', data: { reason: reasonOf(command.data.reason) } }];
    }
  }
}

export function evolveJobPosition(state: JobPositionState, event: JobPositionEvent): JobPositionState {
  switch (event.type) {
    case 'JobPositionCreated': {
      const { positionId: _id, status, ...fields } = event.data;
      return { exists: true, status, fields };
    }
    case 'JobPositionCorrected':
      return state.fields ? { ...state, fields: applyPatch(state.fields, event.data.changes) } : state;
    case 'JobPositionDeactivated':
      return { ...state, status: 'inactive' };
    case 'JobPositionReactivated':
      return { ...state, status: 'active' };
  }
}

export const jobPositionDecider: Decider<JobPositionCommand, JobPositionEvent, JobPositionState> = {
  category: JOB_POSITION_CATEGORY,
  initialState: initialJobPositionState,
  evolve: evolveJobPosition,
  decide: decideJobPosition,
};
