// /dialisis/turnos: the shifts of each location (their occupancy on a date is in scheduleSessionRoutes.ts).
import Type from 'typebox';
import type { RouteDecl } from '../../routeTypes.js';
import { correctShift, defineShift, retireShift } from '../../../commands/dialisis/schedule/scheduleWrites.js';
import { scheduleDeps } from '../../../facts/dialisis/index.js';
import { listShifts, shiftModel, shiftView } from '../../../queries/dialisis/scheduleQueries.js';
import { commandCtx, ok } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { READ, TAG, WRITE } from './permissions.js';
import { ShiftBody, ShiftPatchBody, ShiftView } from './scheduleSchemas.js';

export const shiftKit = recordKit({
  tag: TAG,
  base: '/dialisis/turnos',
  read: READ,
  write: WRITE,
  noun: 'shift',
  model: shiftModel,
  view: shiftView,
  viewSchema: ShiftView,
});

export const shiftRoutes: RouteDecl[] = [
  shiftKit.create({
    summary: 'Define a shift of a location: weekdays, dialysis window, cleaning window, nominal and reserved seats',
    description:
      'The location must be one of the company (422 naming locationId) and open (409 location-closed). Without capacity the ' +
      "company policy's default applies (the event records the policy revision).",
    body: ShiftBody,
    idKey: 'shiftId',
    handle: (body, ctx) => defineShift(scheduleDeps(ctx.services), commandCtx(ctx), body),
  }),
  shiftKit.list({
    summary: 'List shifts by name, of one location or status',
    legacyQuery: ['sedeId', 'estado'],
    filters: { locationId: Type.Optional(IdSchema), status: Type.Optional(Type.Enum(['active', 'retired'])) },
    list: listShifts,
  }),
  shiftKit.read({ summary: 'Read a shift' }),
  shiftKit.patch({
    summary: "Correct a shift's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the shift changed). Seats already taken ' +
      'stay taken when the capacity is lowered; new claims follow the new capacity.',
    body: ShiftPatchBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctShift(ctx.services, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  shiftKit.action({
    path: 'baja',
    summary: 'Retire a shift (terminal) with a reason: no new plan or session may use it',
    responses: { 200: ok('The retired shift', ShiftView) },
    handle: (id, { reason }, ctx, ifMatch) => retireShift(ctx.services, commandCtx(ctx, reason), id, reason, ifMatch),
  }),
];
