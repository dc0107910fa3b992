// Job positions of a company (stream `<tenant>.jobPosition-<id>`): commands, events and the position's fields.
// Who/when/why travel in the event metadata (actor, occurredAt, reason).
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the position streams: written once, here (the decider, the writes and the read side take it). */
export const JOB_POSITION_CATEGORY = 'jobPosition';
export const jobPositionStream = (tenantId: string, positionId: string): string => streamName(tenantId, JOB_POSITION_CATEGORY, positionId);

export const POSITION_STATUSES = ['active', 'inactive'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

/** Role codes a position suggests for its staff's user accounts (the roles' own code format). */
export const ROLE_CODE_PATTERN = '^[a-z][a-z0-9-]{1,39}$';

export type JobPositionFields = {
  code: string;
  name: string;
  clinical: boolean;
  licenceRequired: boolean;
  /** Who licenses the holders (e.g. CMP, CEP); required when licenceRequired. */
  licensingBody?: string;
  suggestedRoles: string[];
  /** A physician's position (clinical, licensed): only its holders validate sessions and issue prescriptions. */
  physician?: boolean;
};

/** A correction: the fields sent change; licensingBody null clears it. */
export type JobPositionPatch = Partial<Omit<JobPositionFields, 'licensingBody'>> & { licensingBody?: string | null };
export const CORRECTABLE_POSITION_FIELDS = [
  'code',
  'name',
  'clinical',
  'licenceRequired',
  'licensingBody',
  'suggestedRoles',
  'physician',
] as const;

export type JobPositionCommand =
  | CommandEnvelope<'CreateJobPosition', JobPositionFields>
  | CommandEnvelope<'CorrectJobPosition', JobPositionPatch>
  | CommandEnvelope<'DeactivateJobPosition', { reason: string }>
  | CommandEnvelope<'ReactivateJobPosition', { reason: string }>;

export type JobPositionEvent =
  | DecidedEvent<'JobPositionCreated', JobPositionFields & { positionId: string; status: 'active' }>
  | DecidedEvent<'JobPositionCorrected', { changes: JobPositionPatch; previous: JobPositionPatch }>
  | DecidedEvent<'JobPositionDeactivated', { reason: string }>
  | DecidedEvent<'JobPositionReactivated', { reason: string }>;

export const JOB_POSITION_EVENT_TYPES: readonly JobPositionEvent['type'][] = [
  'JobPositionCreated',
  'JobPositionCorrected',
  'JobPositionDeactivated',
  'JobPositionReactivated',
];

/** Codes compare trimmed and case-insensitively: ' ENF-01 ' and 'enf-01' are one code. */
export function positionCodeKey(code: string): string {
  return code.normalize('NFKC').trim().toLowerCase();
}
