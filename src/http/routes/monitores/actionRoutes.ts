// /monitores/{id}/...: what happens to a machine (use, disinfection, calibration, maintenance, faults, retirement).
// Each answers the machine with its derived status; If-Match is optional (412 when sent and stale).
import Type, { type Static, type TSchema } from 'typebox';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { newId } from '../../../commands/eventIds.js';
import { machineCommand, recordDisinfection, recordMachineUseByHand } from '../../../commands/monitores/machineWrites.js';
import { commandCtx, conflict409, ok, precondition412, withFieldPointers } from '../shared/recordSupport.js';
import { IdParams, IdSchema, ReasonBody } from '../shared/fieldSchemas.js';
import {
  CalibrationBody,
  CloseBody,
  DisinfectionBody,
  EndUseBody,
  FaultBody,
  MachineView,
  PreventiveBody,
  RepairBody,
  StartDisinfectionBody,
  StartUseBody,
  TAG,
  TicketStepBody,
  WRITE,
} from './schemas.js';
import { machineKit } from './support.js';

/** What machineCommand runs: a command of the machine stream alone. */
type PlainCommand = Parameters<typeof machineCommand>[3];

const TicketParams = Type.Object({ id: IdSchema, ticketId: IdSchema }, { additionalProperties: false });

/** A command on the machine stream alone, built from the body. */
const commandAction = <B extends TSchema>(path: string, summary: string, body: B, command: (data: Static<B>) => PlainCommand) =>
  machineKit.action({
    path,
    summary,
    body,
    handle: (id, data, ctx, ifMatch) => machineCommand(ctx.services.events, commandCtx(ctx), id, command(data), ifMatch),
  });

/** A step of the machine's open corrective ticket named in the path: the body plus the ticket id is the command's data. */
const ticketAction = <B extends TSchema>(
  path: string,
  decl: { summary: string; description?: string; body: B; command: (data: Static<B> & { ticketId: string }) => PlainCommand },
) =>
  machineKit.action({
    path: `averias/{ticketId}/${path}`,
    summary: decl.summary,
    ...(decl.description ? { description: decl.description } : {}),
    params: TicketParams,
    body: decl.body,
    handle: (id, body, ctx, ifMatch, { ticketId }) =>
      machineCommand(ctx.services.events, commandCtx(ctx), id, decl.command({ ...body, ticketId }), ifMatch),
  });

/** Taking the machine into preventive maintenance: an action without a body. */
const startPreventiveMaintenance = route({
  method: 'post',
  path: '/monitores/{id}/mantenimientos-preventivos/inicio',
  tag: TAG,
  auth: 'tenant',
  permission: WRITE,
  summary: 'Take the machine into preventive maintenance',
  params: IdParams,
  requestHeaders: { 'If-Match': ifMatchHeader(false) },
  responses: { 200: ok('The machine', MachineView), 404: machineKit.notFound404, 409: conflict409, 412: precondition412 },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const ifMatch = ifMatchRevision(input.headers['if-match']);
      const command = { type: 'StartPreventiveMaintenance', data: {} } as const;
      const result = await machineCommand(ctx.services.events, commandCtx(ctx), input.params.id, command, ifMatch);
      return machineKit.answer(ctx, input.params.id, result);
    }),
});

export const machineActionRoutes: RouteDecl[] = [
  machineKit.action({
    path: 'usos',
    summary: 'Record by hand the use of an ended session (back-entry): its operating hours and one session',
    description:
      "A session's start claims its machine and its end records the use; by hand only for a session of this patient (422 " +
      'naming sessionId otherwise) that has ended (409 session-not-ended) on this machine (409 not-equipment-of-session). The hours ' +
      "are the session's effective treatment time. A machine the session still holds is then free (awaiting disinfection per " +
      'policy); one another session holds stays with it. A use already counted changes nothing.',
    body: StartUseBody,
    handle: (id, body, ctx) => recordMachineUseByHand(ctx.services, commandCtx(ctx), id, body, { holderOnly: false }),
  }),
  machineKit.action({
    path: 'fin-uso',
    summary:
      'End the use of an ended session that still holds the machine: its operating hours and one session; then disinfection per policy',
    description:
      "What the session's end does by itself, for when it could not: the session must have ended (409 session-not-ended: a " +
      'running session keeps its machine) and used this machine (409 not-equipment-of-session), and hold it (409 ' +
      "not-in-use-by-session). The hours are the session's effective treatment time, never given by the caller.",
    body: EndUseBody,
    handle: (id, body, ctx) => recordMachineUseByHand(ctx.services, commandCtx(ctx), id, body, { holderOnly: true }),
  }),
  commandAction('desinfecciones/inicio', 'Start disinfecting the machine', StartDisinfectionBody, (data) => ({
    type: 'StartDisinfection',
    data,
  })),
  machineKit.action({
    path: 'desinfecciones',
    summary: 'Record a disinfection (method, chemical and lot, after which session): the machine is available',
    description: 'A named afterSessionId must be a session of this company (422 naming it).',
    body: DisinfectionBody,
    handle: (id, body, ctx, ifMatch) => recordDisinfection(ctx.services, commandCtx(ctx), id, body, ifMatch),
  }),
  commandAction(
    'calibraciones',
    'Record a calibration (parameter, reference, measured, pass/fail): a failed one takes the machine out of service until that parameter passes',
    CalibrationBody,
    (data) => ({ type: 'RecordCalibration', data }),
  ),
  startPreventiveMaintenance,
  commandAction(
    'mantenimientos-preventivos',
    'Record a preventive maintenance performed: restarts the plan from its date (hours run since that date still count); a failed return-to-service test keeps it in maintenance',
    PreventiveBody,
    (data) => ({ type: 'RecordPreventiveMaintenance', data }),
  ),
  machineKit.action({
    path: 'averias',
    summary: 'Report a fault: opens a corrective ticket (its id is openTicket.ticketId) and takes the machine into corrective maintenance',
    body: FaultBody,
    // A report is never stale: If-Match is documented but not checked.
    handle: (id, body, ctx) =>
      machineCommand(ctx.services.events, commandCtx(ctx), id, { type: 'ReportFault', data: { ...body, ticketId: newId() } }, null),
  }),
  ticketAction('estado', {
    summary: 'Move the corrective ticket: assigned (to a technician), in-progress, waiting-for-part',
    body: TicketStepBody,
    command: (data) => ({ type: 'AdvanceRepairTicket', data }),
  }),
  ticketAction('reparacion', {
    summary: 'Complete the repair: work done, parts replaced, cost, downtime',
    body: RepairBody,
    command: (data) => ({ type: 'CompleteRepair', data }),
  }),
  ticketAction('cierre', {
    summary: 'Close the ticket with its return-to-service tests',
    description:
      'With every test passed the machine returns to the status it had before the fault; any failed test leaves it out of service.',
    body: CloseBody,
    command: (data) => ({ type: 'CloseRepairTicket', data }),
  }),
  machineKit.action({
    path: 'baja',
    summary: 'Retire the machine (terminal) with a reason',
    body: ReasonBody,
    handle: (id, data, ctx, ifMatch) =>
      machineCommand(ctx.services.events, commandCtx(ctx, data.reason), id, { type: 'RetireMachine', data }, ifMatch),
  }),
];
