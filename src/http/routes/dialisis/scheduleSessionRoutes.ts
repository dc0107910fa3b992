// The day's schedule: generation from the standing plans, extra and emergency sessions, cancellation and no-show (each
// giving the seat back), and who holds the seats of a shift on a date.
import Type, { type Static, type TSchema } from 'typebox';
import { MinPositionField, problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { DomainError } from '../../../commands/decider.js';
import { writeHeaders } from '../../recordHeaders.js';
import { route, type HttpResult, type RouteDecl } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import type { SessionState } from '../../../commands/dialisis/session/sessionState.js';
import { generateDay, requestExtraSession } from '../../../commands/dialisis/schedule/dayWrites.js';
import { endSessionSlot } from '../../../commands/dialisis/schedule/seatWrites.js';
import { scheduleDeps } from '../../../facts/dialisis/index.js';
import { SCHEDULE_PROJECTION } from '../../../projections/dialisis/scheduleProjection.js';
import { awaitScheduleHead, shiftModel } from '../../../queries/dialisis/scheduleQueries.js';
import { occupancyOf } from '../../../queries/dialisis/scheduleOccupancy.js';
import { commandCtx, conflict409, createdOk, ok, tenantCtx, unavailable503, withFieldPointers } from '../shared/recordSupport.js';
import { DateSchema, IdParams } from '../shared/fieldSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { READ, TAG, WRITE } from './permissions.js';
import {
  CancelBody,
  ExtraSessionBody,
  GenerationBody,
  GenerationView,
  NoShowBody,
  OccupancyView,
  SessionSlotView,
} from './scheduleSchemas.js';

const session404 = problem("No such session in the selected company (another company's session is reported the same way)");
const shift404 = problem("No such shift in the selected company (another company's shift is reported the same way)");

function slotResult(result: CommandResult<SessionState>, status = 200): HttpResult {
  const scheduled = result.state.scheduled!;
  const { sessionId, patientId, date, shiftId, locationId, kind } = scheduled;
  const location = status === 201 ? `/dialisis/sesiones/${sessionId}` : undefined;
  return {
    status,
    body: { sessionId, patientId, date, shiftId, locationId, kind, status: result.state.status },
    headers: writeHeaders({ revision: result.revision, position: result.position, ...(location ? { location } : {}) }),
  };
}

type SlotEnd = Parameters<typeof endSessionSlot>[3];

/** A scheduled session's slot ended before it starts (cancelled, no-show): its seat is given back; answers the slot. */
function slotEndRoute<B extends TSchema>(decl: {
  path: string;
  summary: string;
  body: B;
  answered: string;
  command: (body: Static<B>) => SlotEnd;
  reason?: (body: Static<B>) => string;
}): RouteDecl {
  return route({
    method: 'post',
    path: `/dialisis/sesiones/{id}/${decl.path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: decl.summary,
    params: IdParams,
    body: decl.body,
    responses: { 200: ok(decl.answered, SessionSlotView), 404: session404, 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const body = input.body as Static<B>;
        const cmd = commandCtx(ctx, decl.reason?.(body));
        return slotResult(await endSessionSlot(scheduleDeps(ctx.services), cmd, input.params.id, decl.command(body)));
      }),
  });
}

export const scheduleSessionRoutes: RouteDecl[] = [
  route({
    method: 'post',
    path: '/dialisis/agenda/{fecha}/generacion',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Generate the day's schedule from the standing plans in effect on that date",
    description:
      "Each plan in effect on the date's weekday schedules its patient's session in its shift, holding a seat. Running it " +
      'again changes nothing and answers the same `scheduled` count (`created` 0). Patients who are not active are never ' +
      'scheduled: they are listed in `skipped` with the reason, as are plans whose shift is full. Not for a past date (422).',
    params: Type.Object({ fecha: DateSchema }, { additionalProperties: false }),
    body: GenerationBody,
    responses: {
      200: {
        description: 'What the day holds now',
        schema: GenerationView,
        headers: { 'X-Event-Position': 'Of the last session scheduled: pass it as minPosition to read the day (absent when none was)' },
      },
      503: unavailable503,
    },
    handle: async (input, ctx) => {
      try {
        const { generation, position } = await generateDay(
          scheduleDeps(ctx.services),
          commandCtx(ctx),
          input.params.fecha,
          input.body?.locationId,
        );
        return { status: 200, body: generation, headers: writeHeaders({ position }) };
      } catch (err) {
        // The date travels in the path: its field errors point there.
        if (err instanceof DomainError && err.code === 'validation-failed') {
          throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', err.message, {}, [
            { pointer: '/params/fecha', message: err.message },
          ]);
        }
        throw err;
      }
    },
  }),
  route({
    method: 'post',
    path: '/dialisis/sesiones',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Schedule an extra or emergency session, with its reason and the requesting physician',
    description:
      'One session per patient, date and shift: a second answers 409 session-already-scheduled. A planned or extra session ' +
      'needs a free nominal seat, an emergency may also take a reserved one (409 shift-full otherwise). requestedBy is a ' +
      'collaborator of the company (422 naming it).',
    body: ExtraSessionBody,
    responses: {
      201: createdOk('The scheduled session', SessionSlotView, 'URL of the session'),
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () =>
        slotResult((await requestExtraSession(scheduleDeps(ctx.services), commandCtx(ctx), input.body)).session, 201),
      ),
  }),
  slotEndRoute({
    path: 'cancelacion',
    summary: 'Cancel a session before it starts, with a reason: its seat is given back',
    body: CancelBody,
    answered: 'The cancelled session',
    command: ({ reason }) => ({ type: 'CancelSession', data: { reason } }),
    reason: ({ reason }) => reason,
  }),
  slotEndRoute({
    path: 'inasistencia',
    summary: 'Mark a scheduled session as a no-show: its seat is given back for an extra or emergency patient',
    body: NoShowBody,
    answered: 'The session, no-show',
    // The body may be absent altogether.
    command: (body?: { note?: string }) => ({ type: 'MarkNoShow', data: body?.note ? { note: body.note } : {} }),
  }),
  route({
    method: 'get',
    path: '/dialisis/turnos/{id}/ocupacion',
    legacyQuery: ['fecha'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Who holds the seats of a shift on a date: capacity, seats taken by kind, seats left, the sessions',
    params: IdParams,
    query: Type.Object({ date: DateSchema, ...MinPositionField }, { additionalProperties: false }),
    responses: { 200: { description: 'The occupancy', schema: OccupancyView }, 404: shift404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'shiftOccupancy', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SCHEDULE_PROJECTION]);
      const scope = tenantCtx(ctx);
      if (!input.query.minPosition) await awaitScheduleHead(scope);
      const shift = await shiftModel.or404(scope, input.params.id);
      return { status: 200, body: await occupancyOf(scope, shift, input.query.date) };
    },
  }),
];
