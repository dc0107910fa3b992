// /empresas/actual/sedes/{sedeId}/salas and /puestos: rooms (salas) and dialysis stations (puestos) of a location.
import { ifMatchRevision } from '../../recordHeaders.js';
import type { Static, TSchema } from 'typebox';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { WriteOutcome } from '../../../queries/recordModel.js';
import { locationCommand, newEntityId } from '../../../commands/empresas/locationWrites.js';
import { commandCtx, createdOk, ok, withFieldPointers } from '../shared/recordSupport.js';
import { ADMIN, TAG } from './support.js';
import {
  AddRoomBody,
  AddStationBody,
  LocationParams,
  LocationView,
  ReasonBody,
  RenameRoomBody,
  RoomParams,
  StationParams,
} from './locationSchemas.js';
import { BASE, locationKit, optionalIfMatch, writeResponses } from './locationKit.js';

/** A room or station added to a location: idempotent (its id derives from the Idempotency-Key), 201 with createdId. */
function addRoute<BS extends TSchema>(decl: {
  segment: 'salas' | 'puestos';
  kind: 'room' | 'station';
  summary: string;
  description: string;
  body: BS;
  add: (sedeId: string, entityId: string, body: Static<BS>, ctx: RequestContext, ifMatch: number | null) => Promise<WriteOutcome>;
}): RouteDecl {
  return route({
    method: 'post',
    path: `${BASE}/{sedeId}/${decl.segment}`,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    idempotent: true,
    summary: decl.summary,
    description: decl.description,
    params: LocationParams,
    body: decl.body,
    requestHeaders: optionalIfMatch,
    responses: {
      201: createdOk(`The location with the new ${decl.kind} (createdId)`, LocationView, 'URL of the location'),
      ...writeResponses,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const createdId = newEntityId(decl.kind, ctx.idempotencyKey);
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await decl.add(input.params.sedeId, createdId, input.body as Static<BS>, ctx, ifMatch);
        return locationKit.answer(ctx, input.params.sedeId, result, 201, { extra: { createdId } });
      }),
  });
}

/** A station's deactivation or reactivation: same shape, opposite event. */
const stationStatusRoute = (segment: 'desactivacion' | 'reactivacion', type: 'DeactivateStation' | 'ReactivateStation', summary: string) =>
  route({
    method: 'post',
    path: `${BASE}/{sedeId}/puestos/{puestoId}/${segment}`,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary,
    description: 'With a reason (recorded and shown in the history). A closed location brings no station back into service.',
    params: StationParams,
    body: ReasonBody,
    requestHeaders: optionalIfMatch,
    responses: { 200: ok('The location', LocationView), ...writeResponses },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { sedeId, puestoId } = input.params;
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const data = { stationId: puestoId, reason: input.body.reason };
        const result = await locationCommand(ctx.services.events, commandCtx(ctx, input.body.reason), sedeId, type, data, ifMatch);
        return locationKit.answer(ctx, sedeId, result);
      }),
  });

export const roomAndStationRoutes: RouteDecl[] = [
  addRoute({
    segment: 'salas',
    kind: 'room',
    summary: 'Add a room (sala) to a location',
    description: 'Room names are unique within the location (409 duplicate-room-name); a closed location answers 409 location-closed.',
    body: AddRoomBody,
    add: (sedeId, roomId, body, ctx, ifMatch) =>
      locationCommand(ctx.services.events, commandCtx(ctx), sedeId, 'AddRoom', { roomId, ...body }, ifMatch),
  }),
  route({
    method: 'patch',
    path: `${BASE}/{sedeId}/salas/{salaId}`,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary: 'Rename a room',
    params: RoomParams,
    body: RenameRoomBody,
    requestHeaders: optionalIfMatch,
    responses: { 200: ok('The location', LocationView), ...writeResponses },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { sedeId, salaId } = input.params;
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const data = { roomId: salaId, name: input.body.name };
        const result = await locationCommand(ctx.services.events, commandCtx(ctx, input.body.reason), sedeId, 'RenameRoom', data, ifMatch);
        return locationKit.answer(ctx, sedeId, result);
      }),
  }),
  addRoute({
    segment: 'puestos',
    kind: 'station',
    summary: 'Add a dialysis station (puesto) to a room of a location',
    description:
      'Station codes are unique within the location (409 duplicate-station-code); roomId must be a room of this location (422); a closed location answers 409 location-closed.',
    body: AddStationBody,
    add: (sedeId, stationId, body, ctx, ifMatch) =>
      locationCommand(ctx.services.events, commandCtx(ctx), sedeId, 'AddStation', { stationId, ...body }, ifMatch),
  }),
  stationStatusRoute('desactivacion', 'DeactivateStation', 'Take a station out of service'),
  stationStatusRoute('reactivacion', 'ReactivateStation', 'Bring a station back into service'),
];
