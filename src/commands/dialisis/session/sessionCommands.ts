// What can be asked of a dialysis session (sessionDecider.ts): the commands, with the facts the writes hand in.
import type { CommandEnvelope } from '../../decider.js';
import type { SessionLimits } from '../shared/sessionLimits.js';
import type { AccessUsed, JudgedClinical } from '../shared/sessionSnapshots.js';
import type {
  AmendableBlock,
  ChangeMachineData,
  Complication,
  Equipment,
  InterruptionReason,
  Medication,
  PatientFacts,
  PostDialysis,
  PreDialysis,
  PrescriptionInForce,
  Reading,
  SafetyChecks,
  ScheduledData,
  SessionDryWeight,
  Signer,
} from './sessionEvents.js';

type C<T extends string, D> = CommandEnvelope<T, D>;
export type SessionCommand =
  | C<'ScheduleSession', ScheduledData & { patient: PatientFacts; today: string }>
  | C<'CheckInPatient', Record<string, never>>
  | C<'RecordPreDialysis', PreDialysis>
  | C<'RecordSafetyChecks', SafetyChecks>
  | C<
      'StartSession',
      Equipment & {
        prescription: PrescriptionInForce | null;
        dryWeight: SessionDryWeight | null;
        patient: PatientFacts;
        warnings: string[];
        /** The instant the treatment began, when stated (charted after the fact); else the command's time. */
        startedAt?: string;
        vascularAccess?: AccessUsed | null;
        backEntry?: true;
      }
    >
  | C<'PauseSession', { reason: string; limits: SessionLimits }>
  | C<'ResumeSession', Record<string, never>>
  | C<'RecordReading', Reading & { readingId: string; limits: SessionLimits }>
  | C<'RecordComplication', Complication & { complicationId: string; limits: SessionLimits }>
  | C<'AdministerMedication', Medication & { medicationId: string; limits: SessionLimits }>
  | C<'EndSession', { endedAt?: string }>
  | C<'RecordPostDialysis', PostDialysis>
  | C<'InterruptSession', { reasonCode: InterruptionReason; note?: string; interruptedAt?: string; complicationId?: string }>
  | C<'CancelSession', { reason: string }>
  | C<'MarkNoShow', { note?: string; /** The company's calendar day now. */ today: string }>
  | C<'SignSession', { signer: Signer; judged?: JudgedClinical }>
  | C<'ValidateSession', { signer: Signer }>
  | C<
      'AmendSession',
      {
        block: AmendableBlock;
        changes: Record<string, unknown>;
        reason: string;
        policy: { revision: number; signedEditWindowHours: number };
        limits: SessionLimits;
        /** The person amending, as the writes confirmed them (staff record, fresh code). */
        by: Signer;
        judged?: JudgedClinical;
      }
    >
  | C<'AddAddendum', { text: string; reason: string; limits: SessionLimits; by: Signer }>
  | C<'ChangeMachine', ChangeMachineData>;
