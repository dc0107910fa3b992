// The facts a session start judges (issue 22 item 3), gathered once by one loader before any rule or claim: each says
// where it comes from, folded from a stream (strong) or read from a model (eventual). The rules and claims of the start
// receive them instead of loading the policy or the patient again (the policy was folded 8 times, the patient read 4).
import { loadAggregate } from '../../handleCommand.js';
import { patientDecider } from '../../pacientes/patientDecider.js';
import { dryWeightInForce, type DryWeightInForce, type PatientState } from '../../pacientes/patientState.js';
import { machineDecider } from '../../monitores/machineDecider.js';
import type { MachineState } from '../../monitores/shared/machineState.js';
import { authorizationFor } from '../../clientes/payerLookupWrites.js';
import { coverageClientOn, coveragesOf } from '../../clientes/payerCoverage.js';
import type { PatientEvent } from '../../pacientes/patientEvents.js';
import { contractInForce } from '../../clientes/clientWrites.js';
import { prescriptionInForce } from '../prescription/prescriptionWrites.js';
import type { AppServices } from '../../../services.js';
import { companyPolicy, type PolicyFacts } from '../../../queries/empresas/companyPolicy.js';
import { patients } from '../../../queries/pacientes/readModel.js';
import { streamName } from '../../../stores/eventStore.js';
import type { AccessUsed, PrescriptionInForce } from './sessionEvents.js';
import type { SessionState } from './sessionState.js';
import { otherRunningSession } from './runningSessionWrites.js';

/** The payer's say: blocked or flagged for a missing authorization, a unit to reserve, or nothing (null). */
export type PayerVerdict = { block: boolean; reason: string } | { reserveFrom: string } | null;

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
}

export type LoadStartFacts = (
  services: AppServices,
  tenantId: string,
  sessionId: string,
  session: SessionState,
  input: { machineId: string; startedAt?: string },
) => Promise<StartFacts>;

/** The access the session uses: kept on the session so a later access change never rewrites its eKt/V. */
async function accessUsed(services: AppServices, tenantId: string, patientId: string, rx: PrescriptionInForce | null) {
  const patient = await patients({ services, auth: { tenantId } }).get(tenantId, patientId);
  const primary = patient?.vascularAccesses.find((a) => a.primary && a.status === 'active');
  if (!primary) return null;
  const needles = rx?.needles ?? null;
  return { accessId: primary.accessId, type: primary.type, side: primary.side, site: primary.site, needles } satisfies AccessUsed;
}

/**
 * No valid payer authorization that day under a contract that requires one: blocked or flagged as the contract says
 * (issue 11 item 6). Null when nothing is missing, or the patient has no coverage (self-pay).
 */
async function payerVerdict(
  services: AppServices,
  tenantId: string,
  patientId: string,
  date: string,
  payerClient: string | null,
): Promise<PayerVerdict> {
  if (payerClient === null) return null;
  const lookup = await authorizationFor(services, tenantId, patientId, date, payerClient);
  if (lookup.clientId === null) return null;
  const contract = await contractInForce(services, tenantId, lookup.clientId, date);
  if (!contract?.authorizationRequired) return null;
  const block = contract.withoutAuthorization === 'block';
  // A contract that blocks without authorization holds the unit from the start (issue 21 item 17): a reservation.
  if (lookup.authorization) return block ? { reserveFrom: lookup.clientId } : null;
  return { block, reason: lookup.reason };
}

/** The one loader of a start's facts: every stream read once, the independent ones side by side. */
export const loadStartFacts: LoadStartFacts = async (services, tenantId, sessionId, session, input) => {
  const { patientId, date } = session.scheduled!;
  const [policy, patientLoad, prescription, machineLoad, otherRunning] = await Promise.all([
    companyPolicy(services, tenantId),
    // Whole: its events also give the coverage's payer (payerCoverage.ts), so the stream is read once.
    loadAggregate(services.events, patientDecider, streamName(tenantId, patientDecider.category, patientId), { whole: true }),
    prescriptionInForce(services, tenantId, patientId, date),
    loadAggregate(services.events, machineDecider, streamName(tenantId, machineDecider.category, input.machineId)),
    otherRunningSession(services, tenantId, patientId, sessionId, input.startedAt),
  ]);
  const patient = patientLoad.state;
  const payerClient = coverageClientOn(coveragesOf(patientLoad.events as unknown as PatientEvent[]), date);
  const [payer, access] = await Promise.all([
    payerVerdict(services, tenantId, patientId, date, payerClient),
    accessUsed(services, tenantId, patientId, prescription),
  ]);
  const dryWeight = dryWeightInForce(patient, date);
  return { policy, patient, prescription, dryWeight, machineNow: machineLoad.state, otherRunning, payer, access };
};
