// Starting a session (issue 10 item 4), as reservations (architecture.md): the session's own rules and every piece of
// equipment are judged first, so a refusal names every failed rule; then the machine, the dialyzer and the bloodlines
// are claimed in their own streams (each decider re-checks its rules at that moment), and only then does the session
// stream record the start. A claim refused by a race releases what was claimed; a crash in between leaves claims
// that the reconciliation releases (equipmentClaimsReconciliation.ts). A contract that blocks sessions without
// authorization has the unit reserved the same way, first (issue 21 item 17).
import { DomainError, rule } from '../../decider.js';
import { handleCommand, type CommandContext } from '../../handleCommand.js';
import { cancelMachineUse, startMachineUse } from '../../monitores/machineWrites.js';
import { releaseDialyzerReservation, reserveDialyzerForSession } from '../../filtros-dialisis/dialyzerWrites.js';
import { releaseBloodlineReservation, reserveBloodlineForSession } from '../../lineas/bloodlineWrites.js';
import type { AppServices } from '../../../services.js';
import { releaseAuthorizationUnit, reserveAuthorization } from '../../clientes/payerUnitWrites.js';
import { sessionDecider } from './sessionDecider.js';
import type { Equipment } from './sessionEvents.js';
import { sessionStartReasons } from './sessionRules.js';
import { checkStart } from './treatmentTimes.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import { prescribedDialyzerReasons, type DialyzerSpec } from './prescribedDialyzer.js';
import { PATIENT_SESSION_IN_PROGRESS } from './runningSessionDecider.js';
import { claimRunningSession, releaseRunningSession } from './runningSessionWrites.js';
import { sessionState, type SessionResult } from './sessionWrites.js';
import type { LoadStartFacts, StartInput } from './startFacts.js';
import { historyMachineReasons, isBackEntry, PAST_DATE_START, pastDateWithoutStart } from './backEntry.js';

/**
 * What a start is run with: its facts' loader, and the services its claims write through (each group's claim takes them).
 */
export interface StartDeps {
  services: AppServices;
  loadFacts: LoadStartFacts;
}

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

export async function startSession(
  deps: StartDeps,
  ctx: CommandContext,
  sessionId: string,
  input: StartInput,
  ifMatch: number | null,
): Promise<SessionResult> {
  const { services } = deps;
  const tenantId = ctx.tenantId;
  const at = ctx.at ?? services.now().toISOString();
  const state = await sessionState(services, tenantId, sessionId);
  // Every fact the start judges, loaded once (startFacts.ts), its references first (422 naming the field): the rules and
  // claims below receive them.
  const facts = await deps.loadFacts(tenantId, sessionId, state, input, at);
  // A stated start is judged before anything is claimed (the decider judges it again).
  const timeChecks = new FieldChecks();
  if (input.startedAt) checkStart(timeChecks, 'startedAt', input.startedAt, at, null);
  timeChecks.check(!pastDateWithoutStart(state, input.startedAt), 'startedAt', PAST_DATE_START);
  timeChecks.throwIfAny();
  const patientId = state.scheduled!.patientId;
  const { policy, patient: patientState, prescription, dryWeight, machineNow, payer } = facts;
  const patient = { exists: patientState.exists, status: patientState.status };
  // Charted after the fact before the machine's present (issue 21 item 1): judged as of then, no live claim taken.
  const lateEntry = state.scheduled!.lateEntryReason !== undefined;
  const backEntry = isBackEntry(input.startedAt, lateEntry, machineNow.currentSession, sessionId);

  // Judge everything first: a refusal names every failed rule, and nothing is claimed for a start that cannot happen.
  const refusal: StartRefusal = {};
  const running = facts.otherRunning !== null;
  const own = [...sessionStartReasons(state, { patient, prescription, dryWeight }), ...(running ? [PATIENT_SESSION_IN_PROGRESS] : [])];
  if (own.length > 0) refusal.session = own;
  const machineReasons = facts.machine.reasons;
  const standing = backEntry ? historyMachineReasons(machineReasons, machineNow.status) : machineReasons;
  if (standing.length > 0) refusal.machine = standing;
  if (facts.dialyzer) {
    // The dialyzer must be the prescribed one (its model, flux and surface never change after reception).
    const prescribed = prescription?.dialyzer as DialyzerSpec | undefined;
    const reasons = [...facts.dialyzer.reasons, ...prescribedDialyzerReasons(facts.dialyzer.spec, prescribed)];
    if (reasons.length > 0) refusal.dialyzer = reasons;
  }
  for (const what of ['arterialLine', 'venousLine'] as const) {
    const reasons = facts.lines[what];
    if (reasons && reasons.length > 0) refusal[what] = reasons;
  }
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
      claim: () => startMachineUse(services, ctx, input.machineId, use, { patient: patientState, policy }),
      release: () => cancelMachineUse(services, ctx, input.machineId, reason),
    });
  const { dialyzerId, arterialLineId, venousLineId } = input;
  if (dialyzerId && !backEntry)
    claims.push({
      what: 'dialyzer',
      claim: () => reserveDialyzerForSession(services, ctx, dialyzerId, use, { patient: patientState, policy }),
      release: () => releaseDialyzerReservation(services, ctx, dialyzerId, reason),
    });
  for (const [what, lineType, lineId] of [
    ['arterialLine', 'arterial', arterialLineId],
    ['venousLine', 'venous', venousLineId],
  ] as const) {
    if (lineId && !backEntry)
      claims.push({
        what,
        claim: () => reserveBloodlineForSession(services, ctx, lineType, lineId, use, policy),
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
  const warnings = [...facts.machine.warnings, ...(payer && 'reason' in payer ? [`payer-${payer.reason}`] : [])];
  const vascularAccess = facts.access;
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
