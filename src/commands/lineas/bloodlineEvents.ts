// Arterial and venous bloodlines of a company (streams `<tenant>.arterialLine-<id>` / `<tenant>.venousLine-<id>`):
// one set of commands and events for both kinds. Who/when/why travel in the event metadata.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';

export const LINE_TYPES = ['arterial', 'venous'] as const;
export type LineType = (typeof LINE_TYPES)[number];

/** in-use: claimed by a running session (with a reservation), or used and awaiting reprocessing (without one). */
export const LINE_STATUSES = ['in-stock', 'assigned', 'in-use', 'stored', 'discarded'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/** Outcome of the integrity/visual check of a reprocessing: anything but 'passed' discards the line. */
export const INTEGRITY_RESULTS = ['passed', 'leak', 'kinked-or-cracked', 'clotted'] as const;
export type IntegrityResult = (typeof INTEGRITY_RESULTS)[number];

/** Discard reasons (domain.md 3.7): the last two are decided by the rules, the rest by staff. */
export const DISCARD_REASONS = [
  'leak',
  'kinked-or-cracked',
  'clotted',
  'label-missing',
  'damaged',
  'patient-discharged',
  'other',
  'single-use',
  'max-uses-reached',
] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

export const RESIDUAL_RESULTS = ['negative', 'positive'] as const;
export type ResidualResult = (typeof RESIDUAL_RESULTS)[number];

export type LineFields = {
  model: string;
  lot: string;
  serial: string;
  primingVolumeMl: number;
  reusable: boolean;
  receivedOn: string;
};

/** The bloodline part of the company policy in force, with the policy revision that decided. */
export interface LinePolicyFacts {
  revision: number;
  enabled: boolean;
  maxUses: number;
  /** The dialyzer reuse rules apply to bloodlines too (domain.md 3.6): HBsAg-positive reuse only if the policy allows. */
  hbsagPositiveReuse?: boolean;
  /** Minimum germicide dwell of the disinfectant of a reprocessing (dialyzerReuse germicide table), in hours. */
  minDwellHours?: number;
}

/** What the orchestration found about the other line of a pairing. */
export interface PartnerFacts {
  patientId: string | null;
  usable: boolean;
}

export type BloodlineCommand =
  | CommandEnvelope<'ReceiveBloodline', LineFields & { lineType: LineType }>
  | CommandEnvelope<'AssignBloodline', { patientId: string; patient: { exists: boolean; active: boolean }; policy: LinePolicyFacts }>
  | CommandEnvelope<'ReserveBloodlineForSession', { sessionId: string; patientId: string; policy: LinePolicyFacts }>
  | CommandEnvelope<'ReleaseBloodlineReservation', { sessionId: string; reason: string }>
  | CommandEnvelope<'RecordBloodlineUse', { sessionId: string; patientId: string; policy: LinePolicyFacts }>
  | CommandEnvelope<
      'ReprocessBloodline',
      {
        disinfectant: string;
        integrity: IntegrityResult;
        /** Start of the germicide dwell (default: now). */
        fillTime?: string;
        policy: LinePolicyFacts;
        patient?: { hbsagPositive: boolean };
      }
    >
  /** The residual germicide test after rinsing, before the reused line goes into a session. */
  | CommandEnvelope<'RecordBloodlineResidualTest', { result: ResidualResult }>
  | CommandEnvelope<'DiscardBloodline', { reason: DiscardReason; note?: string }>
  | CommandEnvelope<'PairBloodline', { partnerId: string; partner: PartnerFacts }>
  | CommandEnvelope<'UndoBloodlinePairing', { partnerId: string }>;

export type BloodlineEvent =
  | DecidedEvent<'BloodlineReceived', LineFields & { lineId: string; lineType: LineType }>
  | DecidedEvent<'BloodlineAssignedToPatient', { patientId: string; maxUses: number; policyRevision: number }>
  | DecidedEvent<
      'BloodlineReservedForSession',
      { sessionId: string; patientId: string; reservedAt: string; statusBefore: LineStatus; policyRevision: number }
    >
  /** The claim of a session that never started given back: `status` is the one the line had before it. */
  | DecidedEvent<'BloodlineReservationReleased', { sessionId: string; reason: string; releasedAt: string; status: LineStatus }>
  | DecidedEvent<'BloodlineUsed', { sessionId: string; patientId: string; useNumber: number; maxUses: number; policyRevision: number }>
  | DecidedEvent<
      'BloodlineReprocessed',
      {
        disinfectant: string;
        integrity: IntegrityResult;
        afterUse: number;
        policyRevision: number;
        /** Start of the germicide dwell and its minimum (absent on reprocessings recorded before they were kept). */
        fillTime?: string;
        minDwellHours?: number;
      }
    >
  | DecidedEvent<'BloodlineResidualTested', { result: ResidualResult; testedAt: string }>
  | DecidedEvent<'BloodlineDiscarded', { reason: DiscardReason; note?: string; policyRevision?: number }>
  | DecidedEvent<'BloodlinesPaired', { partnerId: string }>
  | DecidedEvent<'BloodlinePairingUndone', { partnerId: string }>;

export const BLOODLINE_EVENT_TYPES: readonly BloodlineEvent['type'][] = [
  'BloodlineReceived',
  'BloodlineAssignedToPatient',
  'BloodlineReservedForSession',
  'BloodlineReservationReleased',
  'BloodlineUsed',
  'BloodlineReprocessed',
  'BloodlineResidualTested',
  'BloodlineDiscarded',
  'BloodlinesPaired',
  'BloodlinePairingUndone',
];

/** Stream category of each kind: the two groups never see each other's lines. */
export const LINE_CATEGORIES: Record<LineType, string> = { arterial: 'arterialLine', venous: 'venousLine' };

/** Serials compare trimmed and case-insensitively, per company and kind. */
export function lineSerialKey(serial: string): string {
  return serial.normalize('NFKC').trim().toLowerCase();
}

/** Uses a line may have under the policy: one unless it is reusable and the company enables bloodline reuse. */
export function maxUsesOf(reusable: boolean, policy: Pick<LinePolicyFacts, 'enabled' | 'maxUses'>): number {
  return reusable && policy.enabled ? Math.max(1, policy.maxUses) : 1;
}
