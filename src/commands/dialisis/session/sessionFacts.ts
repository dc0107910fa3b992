// The facts the session's commands other than the start judge (issue 22 item 3), declared here and gathered by one
// loader each (src/facts/dialisis/sessionFactLoaders.ts): each says whether it is folded from a stream (strong) or read
// from a model (eventual). The start's are in startFacts.ts.
import type { LoadedAggregate } from '../../snapshots.js';
import type { PolicyFacts } from '../../empresas/shared/policySettings.js';
import type { JudgedClinical, SessionEvent } from './sessionEvents.js';
import type { SessionState } from './sessionState.js';
import type { EquipmentVerdict } from './startFacts.js';

/** An event of the session's stream as its load gave it. */
type Recorded = LoadedAggregate<SessionState>['events'][number];

/** Whose signature a signed command needs: any clinical one, or a physician's (validation). */
export type SigningAct = 'clinical' | 'physician';

/** May the person sign clinical records now: their staff record (null without one), or every reason not. */
export interface SignerVerdict {
  allowed: boolean;
  staffId: string | null;
  reasons: string[];
}

/** The facts of a signature, a validation, an amendment or an addendum. */
export interface SignFacts {
  /** Folded once from the company's policy stream: the editing window, the maximums, and the policy the values are judged by. */
  policy: PolicyFacts;
  /** Read from the staff and job-position models (eventual): the signer's standing, judged at the command time. */
  signer: SignerVerdict;
  /**
   * The derived values and flags the record is signed with (issue 21 item 3): the session's recorded events folded with
   * those about to be appended, judged by the policy above, with the previous session, the access and the prescription
   * read from the models (eventual).
   */
  judge: (recorded: readonly Recorded[], pending: readonly SessionEvent[]) => Promise<JudgedClinical>;
}

export type LoadSignFacts = (tenantId: string, who: { actor: string; at: string; act: SigningAct }) => Promise<SignFacts>;

/** The facts of a plain session command. */
export interface SessionCommandFacts {
  /** Folded from the company's policy stream (strong): the clinical maximums an entry is bounded by. */
  policy: () => Promise<PolicyFacts>;
  /** Folded from the product's stream (strong): a medication's product is one of the company's. */
  isCompanyProduct: (productId: string) => Promise<boolean>;
}

export type LoadSessionCommandFacts = (tenantId: string) => SessionCommandFacts;

/** The facts of a machine change mid-session (issue 21 item 8). */
export interface MachineChangeFacts {
  /** Folded from the patient's stream: the isolation the new machine is judged against. */
  isolation: string[];
  /** Read from the machines model (eventual): the new machine's interlocks now; its own decider re-judges the claim. */
  machine: EquipmentVerdict & { allowed: boolean };
}

/**
 * Loads a machine change's facts once. It first checks the references of the input (the machine of this company, the
 * station of the session's location) and answers 422 naming the field, as the route did.
 */
export type LoadMachineChangeFacts = (
  tenantId: string,
  session: SessionState,
  input: { machineId: string; stationId?: string },
  at: string,
) => Promise<MachineChangeFacts>;
