// /empresas/actual/sedes: the selected company's locations (sedes): open, list, read, correct (If-Match), close, history.
import { historyRoute } from '../../recordHistoryAnswer.js';
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { handTypedRoute, type RouteDecl } from '../../routeTypes.js';
import { LOCATION_CATEGORY, type LocationAddress, type LocationPatch } from '../../../commands/empresas/locationEvents.js';
import { correctLocation, locationCommand, openLocation } from '../../../commands/empresas/locationWrites.js';
import { EMPRESAS_PROJECTION } from '../../../projections/empresas/empresasProjection.js';
import { locationView } from '../../../projections/empresas/locationDoc.js';
import { listLocations, type LocationListQuery } from '../../../queries/empresas/locationQueries.js';
import { locationOr404 } from '../../../queries/empresas/readModel.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  RECORD_HEADERS,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { ADMIN, locationNotFound404, READ, TAG } from './support.js';
import { CorrectLocationBody, LocationParams, LocationView, OpenLocationBody, ReasonBody } from './locationSchemas.js';
import { BASE, locationAnswer, optionalIfMatch, writeResponses, type LocationIdParams, type Reason } from './locationAnswer.js';

const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

export const locationRoutes: RouteDecl[] = [
  handTypedRoute<NoInput, LocationListQuery & MinPositionQuery>({
    method: 'get',
    path: BASE,
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The selected company's locations (sedes), by name",
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { status: { enum: ['open', 'closed'] }, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'A page of locations', schema: pageOf(LocationView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [EMPRESAS_PROJECTION]);
      return { status: 200, body: await listLocations(tenantCtx(ctx), input.query) };
    },
  }),
  handTypedRoute<NoInput, NoInput, { name: string; address?: LocationAddress; registryCode?: string }>({
    method: 'post',
    path: BASE,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    idempotent: true,
    summary: 'Open a location (sede)',
    description:
      'The registry code is unique within the company (compared ignoring case, spaces, dots and dashes): a second one answers 409 duplicate-registry-code.',
    body: OpenLocationBody,
    responses: { 201: ok('The new location', LocationView, { ...RECORD_HEADERS, Location: 'URL of the location' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { locationId, result } = await openLocation(ctx.services.events, commandCtx(ctx), input.body);
        return locationAnswer(ctx, locationId, result, 201);
      }),
  }),
  handTypedRoute<LocationIdParams, MinPositionQuery>({
    method: 'get',
    path: `${BASE}/{sedeId}`,
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a location with its rooms and stations',
    params: LocationParams,
    query: minPositionOnly,
    responses: { 200: ok('The location', LocationView, { ETag: RECORD_HEADERS.ETag }), 404: locationNotFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [EMPRESAS_PROJECTION]);
      const doc = await locationOr404(tenantCtx(ctx), input.params.sedeId);
      return { status: 200, body: locationView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  handTypedRoute<LocationIdParams, NoInput, LocationPatch & { reason?: string }>({
    method: 'patch',
    path: `${BASE}/{sedeId}`,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary: "Correct a location's name, address or registry code",
    description:
      'If-Match is required (428 without it, 412 when the location changed). A correction that changes nothing records nothing. ' +
      'A new registry code must still be unique within the company (409 duplicate-registry-code).',
    params: LocationParams,
    body: CorrectLocationBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: { 200: ok('The corrected location', LocationView), ...writeResponses, 428: required428 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const header = input.headers['if-match'];
        const ifMatch = ifMatchRevision(header, { required: true });
        const { reason, ...patch } = input.body;
        const result = await correctLocation(ctx.services.events, commandCtx(ctx, reason), input.params.sedeId, patch, ifMatch);
        return locationAnswer(ctx, input.params.sedeId, result, 200);
      }),
  }),
  handTypedRoute<LocationIdParams, NoInput, Reason>({
    method: 'post',
    path: `${BASE}/{sedeId}/cierre`,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary: 'Close a location',
    description: 'With a reason. A closed location keeps its history but takes no new rooms or stations.',
    params: LocationParams,
    body: ReasonBody,
    requestHeaders: optionalIfMatch,
    responses: { 200: ok('The closed location', LocationView), ...writeResponses },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await locationCommand(
          ctx.services.events,
          commandCtx(ctx, input.body.reason),
          input.params.sedeId,
          'CloseLocation',
          input.body,
          ifMatch,
        );
        return locationAnswer(ctx, input.params.sedeId, result, 200);
      }),
  }),
  historyRoute({
    path: `${BASE}/{sedeId}/historial`,
    tag: TAG,
    permission: READ,
    summary: "The location's history: who, when, why and what of every event, oldest first",
    params: LocationParams,
    idParam: 'sedeId',
    category: LOCATION_CATEGORY,
    projection: EMPRESAS_PROJECTION,
    notFound: locationNotFound404,
    exists: locationOr404,
  }),
];
