// Vascular access lifecycle (domain.md 2.7): maturing -> active -> failed/removed, at most one primary.
import { notFound, rule } from '../decider.js';
import { FieldChecks } from './fieldRules.js';
import type { ChangeVascularAccessStatusData, CreateVascularAccessData } from './patientCommands.js';
import type { PatientEvent } from './patientEvents.js';
import { checkPastDate } from './patientRules.js';
import type { PatientState } from './patientState.js';
import type { AccessStatus, AccessType } from './patientTypes.js';

/** Where an access may go: a maturing one is used (active) or abandoned; a failed one is eventually removed. */
export const ACCESS_TRANSITIONS: Readonly<Record<AccessStatus, readonly AccessStatus[]>> = {
  maturing: ['active', 'failed', 'removed'],
  active: ['failed', 'removed'],
  failed: ['removed'],
  removed: [],
};

const isCatheter = (type: AccessType) => type === 'tunneledCVC' || type === 'nonTunneledCVC';

/** The primary designation that activating `accessId` implies, if any. */
function primaryEvents(state: PatientState, accessId: string, wanted: boolean | undefined): PatientEvent[] {
  const makePrimary = wanted ?? state.primaryAccessId === null;
  if (!makePrimary || state.primaryAccessId === accessId) return [];
  return [{ type: 'VascularAccessPrimaryDesignated', data: { accessId, previousAccessId: state.primaryAccessId } }];
}

export function decideCreateAccess(data: CreateVascularAccessData, state: PatientState, at: string): PatientEvent[] {
  if (state.accesses[data.accessId]) throw rule('vascular-access-already-exists', 'a vascular access with this id already exists');
  const status = data.status ?? (isCatheter(data.type) ? 'active' : 'maturing');
  const checks = new FieldChecks();
  checks.check(data.site.trim().length > 0, 'site', 'must not be blank');
  checkPastDate(checks, 'creationDate', data.creationDate, at, { date: state.demographics?.birthDate, name: 'the birth date' });
  checkPastDate(checks, 'firstCannulationDate', data.firstCannulationDate, at, { date: data.creationDate, name: 'the creation date' });
  checks.check(data.primary !== true || status === 'active', 'primary', 'only an active access can be primary');
  checks.throwIfAny();
  const firstCannulationDate = data.firstCannulationDate ?? (status === 'active' && !isCatheter(data.type) ? data.creationDate : undefined);
  const created: PatientEvent = {
    type: 'VascularAccessCreated',
    data: {
      accessId: data.accessId,
      type: data.type,
      side: data.side,
      site: data.site.trim(),
      creationDate: data.creationDate,
      ...(data.surgeon ? { surgeon: data.surgeon } : {}),
      ...(data.institution ? { institution: data.institution } : {}),
      ...(firstCannulationDate ? { firstCannulationDate } : {}),
      status,
    },
  };
  return status === 'active' ? [created, ...primaryEvents(state, data.accessId, data.primary)] : [created];
}

export function decideAccessStatus(data: ChangeVascularAccessStatusData, state: PatientState, at: string): PatientEvent[] {
  const access = state.accesses[data.accessId];
  if (!access) throw notFound('vascular access');
  if (!ACCESS_TRANSITIONS[access.status].includes(data.status)) {
    throw rule('invalid-access-transition', `a ${access.status} vascular access cannot become ${data.status}`, {
      from: access.status,
      to: data.status,
      allowed: ACCESS_TRANSITIONS[access.status],
    });
  }
  const checks = new FieldChecks();
  checkPastDate(checks, 'date', data.date, at, { date: access.creationDate, name: 'the creation date' });
  checks.check(data.status === 'active' || Boolean(data.reason?.trim()), 'reason', 'is required when an access fails or is removed');
  checks.check(data.primary === undefined || data.status === 'active', 'primary', 'only an active access can be primary');
  const firstCannulationDate =
    data.status === 'active' && !isCatheter(access.type)
      ? (data.firstCannulationDate ?? access.firstCannulationDate ?? data.date)
      : data.firstCannulationDate;
  checkPastDate(checks, 'firstCannulationDate', firstCannulationDate, at, { date: access.creationDate, name: 'the creation date' });
  checks.throwIfAny();
  const changed: PatientEvent = {
    type: 'VascularAccessStatusChanged',
    data: {
      accessId: data.accessId,
      status: data.status,
      previousStatus: access.status,
      date: data.date,
      ...(data.reason?.trim() ? { reason: data.reason.trim() } : {}),
      ...(firstCannulationDate && firstCannulationDate !== access.firstCannulationDate ? { firstCannulationDate } : {}),
    },
  };
  return data.status === 'active' ? [changed, ...primaryEvents(state, data.accessId, data.primary)] : [changed];
}

export function decidePrimaryAccess(accessId: string, state: PatientState): PatientEvent[] {
  const access = state.accesses[accessId];
  if (!access) throw notFound('vascular access');
  if (access.status !== 'active') throw rule('vascular-access-not-active', `a ${access.status} vascular access cannot be primary`);
  return primaryEvents(state, accessId, true);
}
