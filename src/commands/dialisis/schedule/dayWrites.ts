// The day's schedule: every standing plan in effect on a date becomes that patient's session in its shift (once: the
// session id is fixed by patient, date and shift), and extra or emergency sessions on request. Each holds a seat.
import { DomainError, rule } from '../../decider.js';
import type { CommandContext } from '../../handleCommand.js';
import { invalidFields } from '../../shared/fieldChecks.js';
import type { ShiftState } from './shiftDecider.js';
import { patientFacts, shiftOf, staffFacts } from './scheduleFactWrites.js';
import { scheduleWithSeat, type ScheduleDeps, type ScheduledSession } from './seatWrites.js';

/** Refusals that leave one patient unscheduled without stopping the rest of the day. */
const SKIPPED_CODES = new Set(['shift-full', 'shift-retired', 'shift-not-running', 'patient-not-schedulable']);

export interface DayGeneration {
  date: string;
  /** Sessions of the plans in effect that the schedule holds (new or already there): the same on every run. */
  scheduled: number;
  /** Of those, the ones this run wrote. */
  created: number;
  sessions: { sessionId: string; patientId: string; shiftId: string; planId: string; created: boolean }[];
  skipped: { patientId: string; shiftId: string; planId: string; reason: string }[];
}

const today = (deps: ScheduleDeps, ctx: CommandContext) => deps.facts.today(ctx.tenantId, new Date(ctx.at ?? deps.now().toISOString()));

/** What generating a day wrote: the day as it now holds, and the position of its last write (null when none was needed). */
export interface DayGenerated {
  generation: DayGeneration;
  position: bigint | null;
}

export async function generateDay(deps: ScheduleDeps, ctx: CommandContext, date: string, locationId?: string): Promise<DayGenerated> {
  const day = await today(deps, ctx);
  if (date < day) throw invalidFields([{ field: 'fecha', message: `must not be in the past (today is ${day})` }]);
  // Plans come from the read model, once it holds every plan written so far (a plan just created is never missed).
  const planned = await deps.facts.plansInEffect(ctx.tenantId, date, locationId);
  const shifts = new Map<string, Promise<{ state: ShiftState }>>();
  const answer: DayGeneration = { date, scheduled: 0, created: 0, sessions: [], skipped: [] };
  let position: bigint | null = null;
  for (const plan of planned) {
    const { patientId, shiftId, planId } = plan;
    if (!shifts.has(shiftId)) shifts.set(shiftId, shiftOf(deps.events, ctx.tenantId, shiftId));
    const [{ state: shift }, patient] = await Promise.all([shifts.get(shiftId)!, patientFacts(deps.events, ctx.tenantId, patientId)]);
    if (patient.status !== 'active') {
      answer.skipped.push({ patientId, shiftId, planId, reason: `patient-${patient.status}` });
      continue;
    }
    let done: ScheduledSession | { sessionId: string; created: false };
    try {
      done = await scheduleWithSeat(deps, ctx, { patientId, date, shiftId, kind: 'planned', planId }, { patient, shift, today: day });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'session-already-scheduled') {
        // An extra or emergency session holds that slot already: the patient is on the schedule.
        done = { sessionId: String(err.details?.sessionId), created: false };
      } else if (SKIPPED_CODES.has(err.code)) {
        answer.skipped.push({ patientId, shiftId, planId, reason: err.code });
        continue;
      } else throw err;
    }
    answer.sessions.push({ sessionId: done.sessionId, patientId, shiftId, planId, created: done.created });
    const written = 'session' in done ? done.session.position : null;
    if (written !== null && (position === null || written > position)) position = written;
  }
  answer.scheduled = answer.sessions.length;
  answer.created = answer.sessions.filter((s) => s.created).length;
  return { generation: answer, position };
}

export interface ExtraSessionInput {
  patientId: string;
  date: string;
  shiftId: string;
  kind: 'extra' | 'emergency';
  reason: string;
  requestedBy: string;
  /** Required for a past date: why the session is charted after the fact. */
  lateEntryReason?: string;
}

/** An extra or emergency session: a reason and a requesting collaborator of this company; 409 when none seat is left. */
export async function requestExtraSession(deps: ScheduleDeps, ctx: CommandContext, input: ExtraSessionInput): Promise<ScheduledSession> {
  const [{ state: shift }, patient, staff, day] = await Promise.all([
    shiftOf(deps.events, ctx.tenantId, input.shiftId),
    patientFacts(deps.events, ctx.tenantId, input.patientId),
    staffFacts(deps.events, ctx.tenantId, input.requestedBy),
    today(deps, ctx),
  ]);
  const problems = [
    ...(shift.exists ? [] : [{ field: 'shiftId', message: 'no such shift in this company' }]),
    ...(staff.exists ? [] : [{ field: 'requestedBy', message: 'no such collaborator in this company' }]),
  ];
  if (problems.length > 0) throw invalidFields(problems);
  if (!staff.active) throw rule('requester-terminated', 'the requesting collaborator is no longer with the company');
  return scheduleWithSeat(deps, ctx, input, { patient, shift, today: day });
}
