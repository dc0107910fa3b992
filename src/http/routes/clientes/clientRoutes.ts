// /clientes: register, list, read, correct (If-Match), deactivate, reactivate, history.
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import {
  CLIENT_STATUSES,
  PAYER_TYPES,
  type ClientFields,
  type ClientPatch,
  CLIENT_CATEGORY,
} from '../../../commands/clientes/clientEvents.js';
import { clientCommand, correctClient, registerClient } from '../../../commands/clientes/clientWrites.js';
import { CLIENTES_PROJECTION } from '../../../projections/clientes/clientesProjection.js';
import { clientOr404, clientView, listClients, type ClientListQuery } from '../../../queries/clientes/clients.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { ClientView, CorrectBody, READ, ReasonBody, RegisterBody, TAG, WRITE } from './schemas.js';
import { clientAnswer, notFound404, Params, type IdParams } from './support.js';

const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

const statusRoute = (path: string, type: 'DeactivateClient' | 'ReactivateClient', summary: string): RouteDecl =>
  route<IdParams, NoInput, { reason: string }>({
    method: 'post',
    path: `/clientes/{id}/${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary,
    params: Params,
    body: ReasonBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The client', ClientView), 404: notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await clientCommand(
          ctx.services.events,
          commandCtx(ctx, input.body.reason),
          input.params.id,
          { type, data: input.body },
          ifMatch,
        );
        return clientAnswer(ctx, input.params.id, result);
      }),
  });

export const clientRoutes: RouteDecl[] = [
  route<NoInput, NoInput, ClientFields>({
    method: 'post',
    path: '/clientes',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Register a client (payer)',
    description:
      'The tax id is checked for its country with its check digit (422 naming taxId/number) and is unique within the company ' +
      '(409 duplicate-tax-id). A new client is active.',
    body: RegisterBody,
    responses: { 201: ok('The new client', ClientView, { ...RECORD_HEADERS, Location: 'URL of the client' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { clientId, result } = await registerClient(ctx.services.events, commandCtx(ctx), input.body);
        return clientAnswer(ctx, clientId, result, 201);
      }),
  }),
  route<NoInput, ClientListQuery & MinPositionQuery>({
    method: 'get',
    path: '/clientes',
    legacyQuery: ['estado', 'tipo'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List clients by legal name, by status and payer type',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { enum: [...CLIENT_STATUSES] },
        payerType: { enum: [...PAYER_TYPES] },
        ...pageQueryProperties,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'A page of clients', schema: pageOf(ClientView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      return { status: 200, body: await listClients(tenantCtx(ctx), input.query) };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/clientes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a client with its contracts',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The client', ClientView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      const doc = await clientOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: clientView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route<IdParams, NoInput, ClientPatch & { reason: string }>({
    method: 'patch',
    path: '/clientes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Correct a client's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the client changed). A new tax id (or country) ' +
      'is checked again and must still be unique (409). Status and contracts have their own routes.',
    params: Params,
    body: CorrectBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: { 200: ok('The corrected client', ClientView), 404: notFound404, 409: conflict409, 412: precondition412, 428: required428 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
        const { reason, ...patch } = input.body;
        const result = await correctClient(ctx.services.events, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return clientAnswer(ctx, input.params.id, result);
      }),
  }),
  statusRoute('baja', 'DeactivateClient', 'Deactivate a client with a reason: it signs no contract and issues no authorization'),
  statusRoute('reactivacion', 'ReactivateClient', 'Reactivate a client with a reason'),
  historyRoute({
    path: '/clientes/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The client's history: registration, corrections, status, contracts; who, when, why, oldest first",
    params: Params,
    idParam: 'id',
    category: CLIENT_CATEGORY,
    projection: CLIENTES_PROJECTION,
    notFound: notFound404,
    exists: clientOr404,
  }),
];
