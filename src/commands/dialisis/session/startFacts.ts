// The facts a session start judges (issue 22 item 3), declared here and gathered once by one loader before any rule or
// claim (src/facts/dialisis/startFactLoader.ts): each says where it comes from, folded from a stream (strong) or read
// from a model (eventual). The rules and claims of the start receive them instead of loading the policy or the patient again.
import type { PolicyFacts } from '../../empresas/shared/policySettings.js';
import type { DryWeightInForce, PatientState } from '../../pacientes/patientState.js';
import type { MachineState } from '../../monitores/shared/machineState.js';
import type { AccessUsed, Equipment, PrescriptionInForce } from './sessionEvents.js';
import type { SessionState } from './sessionState.js';
import type { DialyzerSpec } from './prescribedDialyzer.js';

export type StartInput = Omit<Equipment, 'dialyzerId' | 'arterialLineId' | 'venousLineId'> & {
  dialyzerId?: string;
  arterialLineId?: string;
  venousLineId?: string;
  /** When the treatment began, charted after the fact; else now. */
  startedAt?: string;
};

/** The payer's say: blocked or flagged for a missing authorization, a unit to reserve, or nothing (null). */
export type PayerVerdict = { block: boolean; reason: string } | { reserveFrom: string } | null;

/** A model's verdict on a record as of the judged instant: re-judged by its own decider when claimed. */
export interface EquipmentVerdict {
  reasons: string[];
  warnings: string[];
}

export interface StartFacts {
  /** Folded once from the company's policy stream; handed to every rule and claim of the start. */
  policy: PolicyFacts;
  /** Folded from the patient's stream. */
  patient: PatientState;
  /** Folded from the patient's prescription stream: the version in force on the session's date. */
  prescription: PrescriptionInForce | null;
  /** From the patient's stream (above): the dry weight in force on the session's date (issue 21 item 4). */
  dryWeight: DryWeightInForce | null;
  /** Folded from the machine's stream: its present, to tell a back entry (issue 21 item 1). */
  machineNow: MachineState;
  /** Folded from the patient's running-session guard and its holder's stream: another session running (issue 21 item 9). */
  otherRunning: string | null;
  /**
   * The payer of the patient's coverage that day (from the patient's stream, above), then folded from the client's and
   * authorizations' streams, found through the authorizations model (issue 11 item 6).
   */
  payer: PayerVerdict;
  /** Read from the patients model (eventual): the primary active access with the prescription's needles (issue 21 item 3). */
  access: AccessUsed | null;
  /** Read from the machines model (eventual): its interlocks for this patient as of the judged instant (now, or a back entry's start). */
  machine: EquipmentVerdict;
  /** Read from the dialyzers model (eventual): its pre-use verdict and its spec (model, flux, surface never change). */
  dialyzer: { reasons: string[]; spec: DialyzerSpec } | null;
  /** Read from the bloodlines model (eventual): each line's pre-use reasons, or not a line of this patient. */
  lines: Partial<Record<'arterialLine' | 'venousLine', string[]>>;
}

/**
 * Loads a start's facts once. It first checks the references of the input (machine, dialyzer, lines of this company,
 * the station of the session's location) and answers 422 naming the field, as the route did.
 */
export type LoadStartFacts = (
  tenantId: string,
  sessionId: string,
  session: SessionState,
  input: StartInput,
  at: string,
) => Promise<StartFacts>;
