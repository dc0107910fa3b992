// /empresas/actual/sedes: the selected company's locations (sedes): open, list, read, correct (If-Match), close, history.
import Type from 'typebox';
import type { RouteDecl } from '../../routeTypes.js';
import { correctLocation, locationCommand, openLocation } from '../../../commands/empresas/locationWrites.js';
import { listLocations } from '../../../queries/empresas/locationQueries.js';
import { commandCtx, ok } from '../shared/recordSupport.js';
import { CorrectLocationBody, LocationView, OpenLocationBody, ReasonBody } from './locationSchemas.js';
import { locationKit } from './locationKit.js';

export const locationRoutes: RouteDecl[] = [
  locationKit.list({
    summary: "The selected company's locations (sedes), by name",
    filters: { status: Type.Optional(Type.Enum(['open', 'closed'])) },
    list: listLocations,
  }),
  locationKit.create({
    summary: 'Open a location (sede)',
    description:
      'The registry code is unique within the company (compared ignoring case, spaces, dots and dashes): a second one answers 409 duplicate-registry-code.',
    body: OpenLocationBody,
    idKey: 'locationId',
    handle: (body, ctx) => openLocation(ctx.services.events, commandCtx(ctx), body),
  }),
  locationKit.read({ summary: 'Read a location with its rooms and stations' }),
  locationKit.patch({
    summary: "Correct a location's name, address or registry code",
    description:
      'If-Match is required (428 without it, 412 when the location changed). A correction that changes nothing records nothing. ' +
      'A new registry code must still be unique within the company (409 duplicate-registry-code).',
    body: CorrectLocationBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctLocation(ctx.services.events, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  locationKit.action({
    path: 'cierre',
    summary: 'Close a location',
    description: 'With a reason. A closed location keeps its history but takes no new rooms or stations.',
    body: ReasonBody,
    responses: { 200: ok('The closed location', LocationView) },
    handle: (id, body, ctx, ifMatch) =>
      locationCommand(ctx.services.events, commandCtx(ctx, body.reason), id, 'CloseLocation', body, ifMatch),
  }),
  locationKit.history({ summary: "The location's history: who, when, why and what of every event, oldest first" }),
];
