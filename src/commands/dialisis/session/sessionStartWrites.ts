// Starting a session (issue 10 item 4), as reservations (architecture.md): the session's own rules and every piece of
// equipment are judged first, so a refusal names every failed rule; then the machine, the dialyzer and the bloodlines
// are claimed in their own streams (each decider re-checks its rules at that moment), and only then does the session
// stream record the start. A claim refused by a race releases what was claimed; a crash in between leaves claims
// that the reconciliation releases (equipmentClaimsReconciliation.ts). A contract that blocks sessions without
// authorization has the unit reserved the same way, first (issue 21 item 17).
import { DomainError, rule } from '../../decider.js';
import { handleCommand, loadAggregate, type CommandContext } from '../../handleCommand.js';
import { patientDecider } from '../../pacientes/patientDecider.js';
import { dryWeightInForce } from '../../pacientes/patientState.js';
import { cancelMachineUse, startMachineUse } from '../../monitores/machineWrites.js';
import { machineDecider } from '../../monitores/machineDecider.js';
import { releaseDialyzerReservation, reserveDialyzerForSession } from '../../filtros-dialisis/dialyzerWrites.js';
import { releaseBloodlineReservation, reserveBloodlineForSession } from '../../lineas/bloodlineWrites.js';
import type { AppServices } from '../../../services.js';
import { mayStartSession } from '../../../queries/monitores/mayStartSession.js';
import { readyForUse } from '../../../queries/filtros-dialisis/readyForUse.js';
import { dialyzerOr404 } from '../../../queries/filtros-dialisis/dialyzers.js';
import { readyBloodlines } from '../../../queries/lineas/bloodlines.js';
import { prescriptionInForce } from '../prescription/prescriptionWrites.js';
import { authorizationFor } from '../../clientes/payerLookupWrites.js';
import { contractInForce } from '../../clientes/clientWrites.js';
import { releaseAuthorizationUnit, reserveAuthorization } from '../../clientes/payerUnitWrites.js';
import { streamName } from '../../../stores/eventStore.js';
import { sessionDecider } from './sessionDecider.js';
import type { AccessUsed, Equipment, PrescriptionInForce } from './sessionEvents.js';
import { sessionStartReasons } from './sessionRules.js';
import { checkStart } from './treatmentTimes.js';
import { FieldChecks } from '../../fieldChecks.js';
import { patients } from '../../../queries/pacientes/readModel.js';
import { prescribedDialyzerReasons, type DialyzerSpec } from './prescribedDialyzer.js';
import { PATIENT_SESSION_IN_PROGRESS } from './runningSessionDecider.js';
import { claimRunningSession, otherRunningSession, releaseRunningSession } from './runningSessionWrites.js';
import { sessionState, type SessionResult } from './sessionWrites.js';
import { historyMachineReasons, isBackEntry, PAST_DATE_START, pastDateWithoutStart } from './backEntry.js';

export type StartInput = Omit<Equipment, 'dialyzerId' | 'arterialLineId' | 'venousLineId'> & {
  dialyzerId?: string;
  arterialLineId?: string;
  venousLineId?: string;
  /** When the treatment began, charted after the fact; else now. */
  startedAt?: string;
};

/**
 * The access the session uses (issue 21 item 3): the patient's primary active access as recorded now, with the
 * prescription's needles; kept on the session so a later access change never rewrites its eKt/V.
 */
async function accessUsed(services: AppServices, tenantId: string, patientId: string, rx: PrescriptionInForce | null) {
  const patient = await patients({ services, auth: { tenantId } }).get(tenantId, patientId);
  const primary = patient?.vascularAccesses.find((a) => a.primary && a.status === 'active');
  if (!primary) return null;
  const needles = rx?.needles ?? null;
  return { accessId: primary.accessId, type: primary.type, side: primary.side, site: primary.site, needles } satisfies AccessUsed;
}

/** Every reason, by what it is about: the session itself and each piece of equipment. */
export type StartRefusal = Partial<Record<'session' | 'machine' | 'dialyzer' | 'arterialLine' | 'venousLine' | 'payer', string[]>>;

interface Claim {
  what: keyof StartRefusal;
  claim: () => Promise<unknown>;
  release: () => Promise<unknown>;
}

function refuse(refusal: StartRefusal): never {
  const all = Object.entries(refusal).flatMap(([what, reasons]) => reasons.map((r) => `${what}: ${r}`));
  throw rule('session-may-not-start', `the session may not start: ${all.join('; ')}`, { reasons: refusal });
}

const reasonsOf = (err: unknown): string[] => {
  if (!(err instanceof DomainError)) throw err;
  const listed = err.details?.reasons;
  if (Array.isArray(listed)) return listed.map((r) => (typeof r === 'string' ? r : String((r as { code?: string }).code ?? r)));
  return [err.code];
};

/** Claims in order; the first refusal releases what was claimed before it, newest first. */
async function claimAll(claims: Claim[]): Promise<void> {
  const held: Claim[] = [];
  for (const c of claims) {
    try {
      await c.claim();
      held.push(c);
    } catch (err) {
      const reasons = reasonsOf(err);
      for (const h of held.reverse()) await h.release();
      refuse({ [c.what]: reasons });
    }
  }
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
): Promise<{ block: boolean; reason: string } | { reserveFrom: string } | null> {
  const lookup = await authorizationFor(services, tenantId, patientId, date);
  if (lookup.clientId === null) return null;
  const contract = await contractInForce(services, tenantId, lookup.clientId, date);
  if (!contract?.authorizationRequired) return null;
  const block = contract.withoutAuthorization === 'block';
  // A contract that blocks without authorization holds the unit from the start (issue 21 item 17): a reservation.
  if (lookup.authorization) return block ? { reserveFrom: lookup.clientId } : null;
  return { block, reason: lookup.reason };
}

export async function startSession(
  services: AppServices,
  ctx: CommandContext,
  sessionId: string,
  input: StartInput,
  ifMatch: number | null,
): Promise<SessionResult> {
  const tenantId = ctx.tenantId;
  const at = ctx.at ?? services.now().toISOString();
  const state = await sessionState(services, tenantId, sessionId);
  // A stated start is judged before anything is claimed (the decider judges it again).
  const timeChecks = new FieldChecks();
  if (input.startedAt) checkStart(timeChecks, 'startedAt', input.startedAt, at, null);
  timeChecks.check(!pastDateWithoutStart(state, input.startedAt), 'startedAt', PAST_DATE_START);
  timeChecks.throwIfAny();
  const patientId = state.scheduled!.patientId;
  const { state: patientState } = await loadAggregate(services.events, patientDecider, streamName(tenantId, 'patient', patientId));
  const patient = { exists: patientState.exists, status: patientState.status };
  const scope = { services, auth: { tenantId } };
  const prescription = await prescriptionInForce(services, tenantId, patientId, state.scheduled!.date);
  // One dry weight (issue 21 item 4): the patient's record in force on the session's date, read from its stream.
  const dryWeight = dryWeightInForce(patientState, state.scheduled!.date);
  // Charted after the fact before the machine's present (issue 21 item 1): judged as of then, no live claim taken.
  const machineStream = streamName(tenantId, machineDecider.category, input.machineId);
  const { state: machineNow } = await loadAggregate(services.events, machineDecider, machineStream);
  const lateEntry = state.scheduled!.lateEntryReason !== undefined;
  const backEntry = isBackEntry(input.startedAt, lateEntry, machineNow.currentSession, sessionId);

  // Judge everything first: a refusal names every failed rule, and nothing is claimed for a start that cannot happen.
  const refusal: StartRefusal = {};
  const running = await otherRunningSession(services, tenantId, patientId, sessionId, input.startedAt);
  const own = [...sessionStartReasons(state, { patient, prescription, dryWeight }), ...(running ? [PATIENT_SESSION_IN_PROGRESS] : [])];
  if (own.length > 0) refusal.session = own;
  const judgedAt = backEntry ? input.startedAt! : at;
  const machine = await mayStartSession(scope, input.machineId, { isolation: [...patientState.isolation] }, judgedAt);
  const machineReasons = machine.reasons.map((r) => r.code);
  const standing = backEntry ? historyMachineReasons(machineReasons, machineNow.status) : machineReasons;
  if (standing.length > 0) refusal.machine = standing;
  if (input.dialyzerId) {
    const dialyzer = await readyForUse(scope, input.dialyzerId, patientId, at);
    // The dialyzer must be the prescribed one (its model, flux and surface never change after reception).
    const spec = await dialyzerOr404(scope, input.dialyzerId);
    const prescribed = prescription?.dialyzer as DialyzerSpec | undefined;
    const reasons = [...dialyzer.reasons, ...prescribedDialyzerReasons(spec, prescribed)];
    if (reasons.length > 0) refusal.dialyzer = reasons;
  }
  for (const [what, lineType, lineId] of [
    ['arterialLine', 'arterial', input.arterialLineId],
    ['venousLine', 'venous', input.venousLineId],
  ] as const) {
    if (!lineId) continue;
    const { items } = await readyBloodlines(scope, lineType, patientId);
    const line = items.find((item) => item.line.id === lineId);
    const reasons = line ? line.reasons : ['not-a-line-of-this-patient'];
    if (reasons.length > 0) refusal[what] = reasons;
  }
  const payer = await payerVerdict(services, tenantId, patientId, state.scheduled!.date);
  if (payer && 'block' in payer && payer.block) refusal.payer = [payer.reason];
  if (Object.keys(refusal).length > 0) refuse(refusal);

  const use = { sessionId, patientId };
  const reason = { sessionId, reason: 'session-start-refused' };
  // The patient first (one running session per patient, issue 21 item 9), then the payer's unit and the equipment.
  const claims: Claim[] = [
    {
      what: 'session',
      claim: () => claimRunningSession(services, ctx, patientId, sessionId, input.startedAt),
      release: () => releaseRunningSession(services, ctx, patientId, sessionId, reason.reason),
    },
  ];
  if (payer && 'reserveFrom' in payer) {
    const held = { authorizationId: '' };
    const unit = { patientId, clientId: payer.reserveFrom, date: state.scheduled!.date, sessionId };
    claims.push({
      what: 'payer',
      claim: async () => (held.authorizationId = await reserveAuthorization(services, ctx, unit)),
      release: () => releaseAuthorizationUnit(services, ctx, held.authorizationId, reason),
    });
  }
  // A back-entered session's equipment is not claimed: its end records the use as history (sessionConsequences.ts).
  if (!backEntry)
    claims.push({
      what: 'machine',
      claim: () => startMachineUse(services, ctx, input.machineId, use),
      release: () => cancelMachineUse(services, ctx, input.machineId, reason),
    });
  const { dialyzerId, arterialLineId, venousLineId } = input;
  if (dialyzerId && !backEntry)
    claims.push({
      what: 'dialyzer',
      claim: () => reserveDialyzerForSession(services, ctx, dialyzerId, use),
      release: () => releaseDialyzerReservation(services, ctx, dialyzerId, reason),
    });
  for (const [what, lineType, lineId] of [
    ['arterialLine', 'arterial', arterialLineId],
    ['venousLine', 'venous', venousLineId],
  ] as const) {
    if (lineId && !backEntry)
      claims.push({
        what,
        claim: () => reserveBloodlineForSession(services, ctx, lineType, lineId, use),
        release: () => releaseBloodlineReservation(services, ctx, lineType, lineId, reason),
      });
  }
  await claimAll(claims);

  const equipment: Equipment = {
    machineId: input.machineId,
    ...(input.stationId ? { stationId: input.stationId } : {}),
    dialyzerId: dialyzerId ?? null,
    arterialLineId: arterialLineId ?? null,
    venousLineId: venousLineId ?? null,
  };
  const warnings = [...machine.warnings.map((w) => w.code), ...(payer && 'reason' in payer ? [`payer-${payer.reason}`] : [])];
  const vascularAccess = await accessUsed(services, tenantId, patientId, prescription);
  const stated = input.startedAt ? { startedAt: input.startedAt } : {};
  const history = backEntry ? { backEntry: true as const } : {};
  const data = { ...equipment, prescription, dryWeight, patient, warnings, vascularAccess, ...stated, ...history };
  const command = { type: 'StartSession' as const, aggregateId: sessionId, data };
  try {
    return await handleCommand(services.events, sessionDecider, command, ctx, { ifMatch });
  } catch (err) {
    for (const c of claims.reverse()) await c.release();
    throw err;
  }
}
