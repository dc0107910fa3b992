// Dialyzers of a company (stream `<tenant>.dialyzer-<id>`): commands, events and the values they carry.
// Who/when/why travel in the event metadata (actor, occurredAt, reason).
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import type { ReusePolicy } from './shared/reusePolicy.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the dialyzer streams: written once, here (the decider, the writes and the read side take it). */
export const DIALYZER_CATEGORY = 'dialyzer';
export const dialyzerStream = (tenantId: string, dialyzerId: string): string => streamName(tenantId, DIALYZER_CATEGORY, dialyzerId);

/** in-stock: received; assigned: has its patient, never used; in-use: claimed by a running session; used: awaiting
 * reprocessing; stored: reprocessed. */
export const DIALYZER_STATUSES = ['in-stock', 'assigned', 'in-use', 'used', 'stored', 'quarantined', 'discarded'] as const;
export type DialyzerStatus = (typeof DIALYZER_STATUSES)[number];

export const FLUXES = ['low', 'high'] as const;
export const TEST_RESULTS = ['pass', 'fail'] as const;
export type TestResult = (typeof TEST_RESULTS)[number];

/** domain.md 3.6: why a dialyzer leaves service for good. */
export const DISCARD_REASONS = [
  'tcv-below-threshold',
  'pressure-leak-failed',
  'blood-leak',
  'clotted-fibers',
  'header-clots',
  'housing-damaged',
  'label-illegible',
  'max-uses-reached',
  'single-use',
  'storage-time-exceeded',
  'germicide-potency-failed',
  'residual-test-positive',
  'patient-reaction',
  'prescription-changed',
  'patient-discharged',
  'patient-seroconverted',
] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

export type DialyzerFields = {
  model: string;
  surfaceM2: number;
  flux: (typeof FLUXES)[number];
  membrane: string;
  lot: string;
  serial: string;
  reusable: boolean;
};

/** The patient as the write side found it in this company (absent = another company's or none). */
export interface PatientFacts {
  exists: boolean;
  active: boolean;
  hbsagPositive: boolean;
}

export type ReprocessingData = {
  operatorId: string;
  reprocessor: { kind: 'machine' | 'manual'; name?: string };
  tcvMl: number;
  pressureLeak: TestResult;
  bloodLeak: TestResult;
  germicide: { name: string; lot: string; concentrationPercent: number };
  /** Start of the germicide dwell. */
  fillTime: string;
  storageLocation: string;
  expiresOn: string;
};

export type PreUseChecksData = {
  patientId: string;
  /** Before a reuse only (a new dialyzer holds no germicide). */
  germicidePotency?: TestResult;
  residualTest?: 'negative' | 'positive';
  /** Two different staff members who confirmed the patient's identity, each with their own authenticator code. */
  identityConfirmedBy: string[];
};

/** What the write side found about each confirming user: an active, activated member of this company whose staff
 * record may sign clinical records now (their codes are checked after the decider agrees, so a refusal spends none). */
export type ConfirmerFacts = Record<string, boolean>;

export type DialyzerCommand =
  | CommandEnvelope<'ReceiveDialyzer', DialyzerFields>
  | CommandEnvelope<'AssignDialyzer', { patientId: string; baselineTcvMl: number; patient: PatientFacts }>
  | CommandEnvelope<'ReprocessDialyzer', ReprocessingData & { patient: PatientFacts; policy: ReusePolicy }>
  | CommandEnvelope<'RecordPreUseChecks', PreUseChecksData & { confirmers: ConfirmerFacts }>
  | CommandEnvelope<'ReserveDialyzerForSession', { sessionId: string; patientId: string; patient: PatientFacts; policy: ReusePolicy }>
  | CommandEnvelope<'ReleaseDialyzerReservation', { sessionId: string; reason: string }>
  | CommandEnvelope<'RecordDialyzerUse', { sessionId: string; patientId: string; patient: PatientFacts; policy: ReusePolicy }>
  | CommandEnvelope<'DiscardDialyzer', { reason: DiscardReason; note?: string }>;

export type DialyzerEvent =
  | DecidedEvent<'DialyzerReceived', DialyzerFields & { dialyzerId: string }>
  | DecidedEvent<'DialyzerAssignedToPatient', { patientId: string; baselineTcvMl: number }>
  | DecidedEvent<'DialyzerReprocessed', ReprocessingData & { cycle: number; tcvPercent: number; policyRevision: number }>
  | DecidedEvent<'DialyzerQuarantined', { reason: 'pressure-leak-failed'; policyRevision: number }>
  | DecidedEvent<'PreUseChecksRecorded', PreUseChecksData & { checkedAt: string }>
  | DecidedEvent<
      'DialyzerReservedForSession',
      { sessionId: string; patientId: string; reservedAt: string; statusBefore: DialyzerStatus; policyRevision: number }
    >
  /** The claim of a session that never started given back: `status` is the one the dialyzer had before it. */
  | DecidedEvent<'DialyzerReservationReleased', { sessionId: string; reason: string; releasedAt: string; status: DialyzerStatus }>
  | DecidedEvent<
      'DialyzerUsed',
      { sessionId: string; patientId: string; useNumber: number; maxUses: number; policyRevision: number; usedAt?: string }
    >
  | DecidedEvent<'DialyzerDiscarded', { reason: DiscardReason; note?: string; policyRevision?: number }>;

export const DIALYZER_EVENT_TYPES: readonly DialyzerEvent['type'][] = [
  'DialyzerReceived',
  'DialyzerAssignedToPatient',
  'DialyzerReprocessed',
  'DialyzerQuarantined',
  'PreUseChecksRecorded',
  'DialyzerReservedForSession',
  'DialyzerReservationReleased',
  'DialyzerUsed',
  'DialyzerDiscarded',
];

/** Serials compare trimmed and case-insensitively: ' ab-12 ' and 'AB-12' are one dialyzer. */
export function dialyzerSerialKey(serial: string): string {
  return serial.normalize('NFKC').trim().toUpperCase();
}
