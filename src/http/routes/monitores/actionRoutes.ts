// /monitores/{id}/...: what happens to a machine (use, disinfection, calibration, maintenance, faults, retirement).
// Each answers the machine with its derived status; If-Match is optional (412 when sent and stale).
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type JsonSchema, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { CommandContext, CommandResult } from '../../../commands/handleCommand.js';
import { newId } from '../../../commands/eventIds.js';
import type { MachineCommand } from '../../../commands/monitores/machineEvents.js';
import type { MachineState } from '../../../commands/monitores/shared/machineState.js';
import { machineCommand, recordDisinfection, recordMachineUseByHand } from '../../../commands/monitores/machineWrites.js';
import { commandCtx, conflict409, ok, precondition412, withFieldPointers, type NoInput } from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import {
  CalibrationBody,
  CloseBody,
  DisinfectionBody,
  EndUseBody,
  FaultBody,
  MachineView,
  PreventiveBody,
  ReasonBody,
  RepairBody,
  StartDisinfectionBody,
  StartUseBody,
  TAG,
  TicketStepBody,
  WRITE,
} from './schemas.js';
import { machineAnswer, notFound404, Params } from './support.js';

type Params = { id: string; ticketId?: string };
type Body = Record<string, unknown>;
type Run = (
  ctx: RequestContext,
  cmd: CommandContext,
  params: Params,
  body: Body,
  ifMatch: number | null,
) => Promise<CommandResult<MachineState>>;

const TicketParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'ticketId'],
  properties: { id: IdSchema, ticketId: IdSchema },
};

function actionRoute(path: string, summary: string, body: JsonSchema | null, run: Run, description?: string): RouteDecl {
  return route<Params, NoInput, Body>({
    method: 'post',
    path: `/monitores/{id}/${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary,
    ...(description ? { description } : {}),
    params: path.includes('{ticketId}') ? TicketParams : Params,
    ...(body ? { body } : {}),
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The machine', MachineView), 404: notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const reason = typeof input.body?.reason === 'string' ? input.body.reason : null;
        const result = await run(ctx, commandCtx(ctx, reason), input.params, input.body ?? {}, ifMatch);
        return machineAnswer(ctx, input.params.id, result);
      }),
  });
}

/** A command on the machine stream alone: the body is the command data (plus the ticket id from the path). */
const plain =
  (type: MachineCommand['type']): Run =>
  (ctx, cmd, params, body, ifMatch) =>
    machineCommand(
      ctx.services.events,
      cmd,
      params.id,
      { type, data: { ...body, ...(params.ticketId ? { ticketId: params.ticketId } : {}) } } as never,
      ifMatch,
    );

export const machineActionRoutes: RouteDecl[] = [
  actionRoute(
    'usos',
    'Record by hand the use of an ended session (back-entry): its operating hours and one session',
    StartUseBody,
    (ctx, cmd, params, body) =>
      recordMachineUseByHand(ctx.services, cmd, params.id, body as { sessionId: string; patientId: string }, { holderOnly: false }),
    "A session's start claims its machine and its end records the use; by hand only for a session of this patient (422 " +
      'naming sessionId otherwise) that has ended (409 session-not-ended) on this machine (409 not-equipment-of-session). The hours ' +
      "are the session's effective treatment time. A machine the session still holds is then free (awaiting disinfection per " +
      'policy); one another session holds stays with it. A use already counted changes nothing.',
  ),
  actionRoute(
    'fin-uso',
    'End the use of an ended session that still holds the machine: its operating hours and one session; then disinfection per policy',
    EndUseBody,
    (ctx, cmd, params, body) => recordMachineUseByHand(ctx.services, cmd, params.id, body as { sessionId: string }, { holderOnly: true }),
    "What the session's end does by itself, for when it could not: the session must have ended (409 session-not-ended: a " +
      'running session keeps its machine) and used this machine (409 not-equipment-of-session), and hold it (409 ' +
      "not-in-use-by-session). The hours are the session's effective treatment time, never given by the caller.",
  ),
  actionRoute('desinfecciones/inicio', 'Start disinfecting the machine', StartDisinfectionBody, plain('StartDisinfection')),
  actionRoute(
    'desinfecciones',
    'Record a disinfection (method, chemical and lot, after which session): the machine is available',
    DisinfectionBody,
    (ctx, cmd, params, body, ifMatch) =>
      recordDisinfection(ctx.services, cmd, params.id, body as Parameters<typeof recordDisinfection>[3], ifMatch),
    'A named afterSessionId must be a session of this company (422 naming it).',
  ),
  actionRoute(
    'calibraciones',
    'Record a calibration (parameter, reference, measured, pass/fail): a failed one takes the machine out of service until that parameter passes',
    CalibrationBody,
    plain('RecordCalibration'),
  ),
  actionRoute(
    'mantenimientos-preventivos/inicio',
    'Take the machine into preventive maintenance',
    null,
    plain('StartPreventiveMaintenance'),
  ),
  actionRoute(
    'mantenimientos-preventivos',
    'Record a preventive maintenance performed: restarts the plan from its date (hours run since that date still count); a failed return-to-service test keeps it in maintenance',
    PreventiveBody,
    plain('RecordPreventiveMaintenance'),
  ),
  actionRoute(
    'averias',
    'Report a fault: opens a corrective ticket (its id is openTicket.ticketId) and takes the machine into corrective maintenance',
    FaultBody,
    (ctx, cmd, params, body) =>
      machineCommand(
        ctx.services.events,
        cmd,
        params.id,
        { type: 'ReportFault', data: { ...(body as { severity: 'low'; problem: string }), ticketId: newId() } },
        null,
      ),
  ),
  actionRoute(
    'averias/{ticketId}/estado',
    'Move the corrective ticket: assigned (to a technician), in-progress, waiting-for-part',
    TicketStepBody,
    plain('AdvanceRepairTicket'),
  ),
  actionRoute(
    'averias/{ticketId}/reparacion',
    'Complete the repair: work done, parts replaced, cost, downtime',
    RepairBody,
    plain('CompleteRepair'),
  ),
  actionRoute(
    'averias/{ticketId}/cierre',
    'Close the ticket with its return-to-service tests',
    CloseBody,
    plain('CloseRepairTicket'),
    'With every test passed the machine returns to the status it had before the fault; any failed test leaves it out of service.',
  ),
  actionRoute('baja', 'Retire the machine (terminal) with a reason', ReasonBody, plain('RetireMachine')),
];
