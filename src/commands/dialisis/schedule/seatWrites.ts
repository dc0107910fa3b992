// A session and its seat (the reservation of architecture.md): the seat is claimed on the shift-day stream first,
// then the session is scheduled on its own stream; if that fails the seat is given back. Cancellation and no-show
// give the seat back after the session event.
import { notFound } from '../../decider.js';
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import { sessionDecider } from '../session/sessionDecider.js';
import type { PatientFacts, ScheduledData } from '../session/sessionEvents.js';
import { sessionIdFor } from '../session/sessionIds.js';
import type { SessionState } from '../session/sessionState.js';
import type { ShiftState } from './shiftDecider.js';
import type { ScheduleFacts } from './scheduleFacts.js';
import { shiftDayDecider, type ShiftSeatFacts } from './shiftDayDecider.js';
import { shiftDayId, type SeatReleaseReason } from './shiftDayEvents.js';

/** What the schedule's commands are run with: the event store, the clock and the facts' loader. */
export interface ScheduleDeps {
  events: EventStore;
  now: () => Date;
  facts: ScheduleFacts;
}

export type SessionRequest = Omit<ScheduledData, 'sessionId' | 'locationId'>;

/** Seat commands never carry the client's Idempotency-Key: one request may touch one shift-day stream many times. */
const seatCtx = (ctx: CommandContext): CommandContext => ({ ...ctx, idempotencyKey: null });

export const seatFactsOf = (shift: ShiftState): ShiftSeatFacts => ({
  exists: shift.exists,
  retired: shift.retired,
  capacity: shift.fields?.capacity ?? 0,
  reservedCapacity: shift.fields?.reservedCapacity ?? 0,
  ...(shift.fields?.weekdays ? { weekdays: shift.fields.weekdays } : {}),
});

export async function releaseSeat(
  deps: Pick<ScheduleDeps, 'events'>,
  ctx: CommandContext,
  seat: { shiftId: string; date: string; sessionId: string },
  reason: SeatReleaseReason,
): Promise<void> {
  const command = {
    type: 'ReleaseSeat' as const,
    aggregateId: shiftDayId(seat.shiftId, seat.date),
    data: { sessionId: seat.sessionId, reason },
  };
  await handleCommand(deps.events, shiftDayDecider, command, seatCtx(ctx));
}

export interface ScheduledSession {
  sessionId: string;
  /** False when the session already existed (a second generation, a retried request): nothing was written. */
  created: boolean;
  session: CommandResult<SessionState>;
}

/**
 * Schedules the one session of the patient on that date and shift, holding a seat for it. The session decider judges
 * the request first (nothing is claimed for a request it refuses, nor for a session that already exists).
 */
export async function scheduleWithSeat(
  deps: Pick<ScheduleDeps, 'events' | 'now'>,
  ctx: CommandContext,
  request: SessionRequest,
  facts: { patient: PatientFacts; shift: ShiftState; today: string },
): Promise<ScheduledSession> {
  const sessionId = sessionIdFor(ctx.tenantId, request.patientId, request.date, request.shiftId);
  const data = { ...request, sessionId, locationId: facts.shift.fields?.locationId ?? '', patient: facts.patient, today: facts.today };
  const command = { type: 'ScheduleSession' as const, aggregateId: sessionId, data };
  const stream = streamName(ctx.tenantId, sessionDecider.category, sessionId);
  const { state, revision } = await loadAggregate(deps.events, sessionDecider, stream);
  const at = ctx.at ?? deps.now().toISOString();
  const probe = sessionDecider.decide({ ...command, at, actor: ctx.actor, tenantId: ctx.tenantId }, state);
  if (probe.length === 0) return { sessionId, created: false, session: { state, revision, position: null, events: [] } };
  const seat = { type: 'ClaimSeat' as const, aggregateId: shiftDayId(request.shiftId, request.date) };
  const seatData = { sessionId, patientId: request.patientId, kind: request.kind, date: request.date, shift: seatFactsOf(facts.shift) };
  const claimed = await handleCommand(deps.events, shiftDayDecider, { ...seat, data: seatData }, seatCtx(ctx));
  try {
    const session = await handleCommand(deps.events, sessionDecider, command, ctx);
    return { sessionId, created: session.events.length > 0, session };
  } catch (err) {
    // Give back only a seat this call took: a seat held already belongs to the session that exists.
    if (claimed.events.length > 0) await releaseSeat(deps, ctx, { ...request, sessionId }, 'not-scheduled').catch(() => undefined);
    throw err;
  }
}

type SlotCommand =
  | { type: 'CancelSession'; data: { reason: string }; aggregateId: string }
  | { type: 'MarkNoShow'; data: { note?: string }; aggregateId: string };

/** A no-show is judged against the company's calendar day. */
async function withToday(deps: ScheduleDeps, ctx: CommandContext, command: SlotCommand) {
  if (command.type === 'CancelSession') return command;
  const today = await deps.facts.today(ctx.tenantId, new Date(ctx.at ?? deps.now().toISOString()));
  return { ...command, data: { ...command.data, today } };
}

/**
 * Cancels a session or marks it a no-show, then gives its seat back. A retry on a session already in that status
 * only makes sure the seat is free (the process may have stopped between the two writes).
 */
export async function endSessionSlot(
  deps: ScheduleDeps,
  ctx: CommandContext,
  sessionId: string,
  command: { type: 'CancelSession'; data: { reason: string } } | { type: 'MarkNoShow'; data: { note?: string } },
): Promise<CommandResult<SessionState>> {
  const stream = streamName(ctx.tenantId, sessionDecider.category, sessionId);
  const loaded = await loadAggregate(deps.events, sessionDecider, stream);
  if (!loaded.state.exists || !loaded.state.scheduled) throw notFound('session');
  const target = command.type === 'CancelSession' ? 'cancelled' : 'no-show';
  const result =
    loaded.state.status === target
      ? { state: loaded.state, revision: loaded.revision, position: null, events: [] }
      : await handleCommand(deps.events, sessionDecider, await withToday(deps, ctx, { ...command, aggregateId: sessionId }), ctx);
  const { shiftId, date } = loaded.state.scheduled;
  await releaseSeat(deps, ctx, { shiftId, date, sessionId }, target === 'cancelled' ? 'cancelled' : 'no-show');
  return result;
}
