// /integraciones: API clients of the selected company (programs that sign in with client credentials).
import { groupRoutes } from '../shared/groupRoutes.js';
import Type from 'typebox';
import { type RequestContext, type RouteDecl, type TenantRequestContext } from '../../routeTypes.js';
import { pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { closed } from '../shared/fieldSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import { LIMITS } from '../../../limits.js';
import {
  changeApiClientRoles,
  createApiClient,
  revokeApiClient,
  rotateApiClientSecret,
} from '../../../commands/platform/apiClientWrites.js';
import { companyApiClient, companyApiClientAt, companyApiClients } from '../../../queries/usuarios/apiClients.js';
import { AsOfQuerySchema, nowOrAt } from '../../recordAsOf.js';
import { READ_HEADERS } from '../shared/recordSupport.js';
import {
  badCursor400,
  behind503,
  callerOf,
  conflict409,
  obj,
  ok,
  reasonSchema,
  str,
  tenantOf,
  UUID,
  WRITE_HEADERS,
  mustHoldWhatTheyGrant,
  privilegedCaller,
  refusals403,
  writeOnRecordAnswers,
} from '../shared/adminSupport.js';
import { mustOutrankApiClient } from '../../../commands/platform/privilegeWrites.js';
import { RolesSchema } from './schemas.js';
import { ADMIN, READ, TAG } from './userRoutes.js';

const ApiClientSchema = obj({
  id: str('client_id'),
  companyId: str('The company its tokens act in'),
  name: str('Name'),
  roles: { type: 'array', items: { type: 'string' } },
  status: { type: 'string', enum: ['active', 'revoked'] },
  createdAt: str('Created'),
  createdBy: str('Who created it'),
  secretRotatedAt: { type: ['string', 'null'] },
  previousSecretValidUntil: { type: ['string', 'null'], description: 'The previous secret works until then (after a rotation)' },
  lastTokenAt: { type: ['string', 'null'] },
  revokedAt: { type: ['string', 'null'] },
});
const WithSecret = obj({
  client: ApiClientSchema,
  clientSecret: str('The secret: shown only in this answer (stored hashed); send it to POST /auth/token'),
});
const ClientParams = closed({ id: UUID });
const client404 = problem('No such API client in the selected company');

/** A write on a client: it is one of the company's (404 otherwise) and the caller outranks it (403 otherwise). */
async function mustOutrankClient(ctx: RequestContext, clientId: string): Promise<void> {
  await companyApiClient(ctx as TenantRequestContext, clientId);
  await mustOutrankApiClient(ctx.services, privilegedCaller(ctx), clientId);
}

const routes = groupRoutes(TAG);

export const apiClientRoutes: RouteDecl[] = [
  routes.post('/integraciones', ADMIN, {
    // Not idempotent on purpose: a replayed answer is kept in the log, and this one carries a secret shown once.
    summary: 'Create an API client (a program) with roles in this company; its secret is shown once',
    description:
      `The program exchanges client_id and client_secret at POST /auth/token (OAuth 2.0 client credentials) for a ${LIMITS.apiClients.tokenTtlSeconds / 60}-minute ` +
      'bearer token bound to this company. Every event it causes names `client:<id>` as the actor.',
    body: closed({ name: Type.String({ minLength: 1, maxLength: 100 }), roles: RolesSchema }),
    responses: {
      201: ok('The client and its secret', WithSecret, { ...WRITE_HEADERS, Location: 'URL of the client' }),
      403: refusals403('grant'),
      409: conflict409,
      503: behind503,
    },
    async handle({ body }, ctx) {
      await mustHoldWhatTheyGrant(ctx, { roles: body.roles });
      const created = await createApiClient(ctx.services, { companyId: tenantOf(ctx), ...body }, callerOf(ctx));
      return {
        status: 201,
        body: { client: await companyApiClient(ctx as TenantRequestContext, created.clientId), clientSecret: created.clientSecret },
        headers: writeHeaders({ position: created.position, location: `/integraciones/${created.clientId}` }),
      };
    },
  }),
  routes.get('/integraciones', READ, {
    summary: "The company's API clients",
    query: closed(PageQueryFields),
    responses: { 200: ok('A page of clients', pageOf(ApiClientSchema)), 400: badCursor400 },
    async handle({ query }, ctx) {
      return {
        status: 200,
        body: await companyApiClients(ctx as TenantRequestContext, {
          limit: query.limit,
          cursor: query.cursor ?? null,
          ...(query.updatedSince ? { updatedSince: query.updatedSince } : {}),
        }),
      };
    },
  }),
  routes.get('/integraciones/{id}', READ, {
    summary: 'An API client',
    params: ClientParams,
    query: AsOfQuerySchema,
    responses: { 200: ok('The client', ApiClientSchema, READ_HEADERS), 404: client404 },
    handle: ({ params, query }, ctx) =>
      nowOrAt(ctx, query, {
        now: () => companyApiClient(ctx as TenantRequestContext, params.id),
        at: (point) => companyApiClientAt(ctx as TenantRequestContext, params.id, point),
      }),
  }),
  routes.post('/integraciones/{id}/rotacion', ADMIN, {
    summary: 'Rotate the secret: a new one is shown once; the old one keeps working for the grace period',
    params: ClientParams,
    body: closed({
      graceSeconds: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: LIMITS.apiClients.maxGraceSeconds,
          default: LIMITS.apiClients.defaultGraceSeconds,
          description: `How long the old secret still works (default ${LIMITS.apiClients.defaultGraceSeconds} s; 0 ends it now)`,
        }),
      ),
      reason: reasonSchema,
    }),
    responses: writeOnRecordAnswers(
      { 200: ok('The client and its new secret', WithSecret, WRITE_HEADERS) },
      refusals403('outranked'),
      client404,
    ),
    async handle({ params, body }, ctx) {
      await mustOutrankClient(ctx, params.id);
      const graceSeconds = body.graceSeconds ?? LIMITS.apiClients.defaultGraceSeconds;
      const rotated = await rotateApiClientSecret(ctx.services, { clientId: params.id, graceSeconds }, callerOf(ctx, body.reason));
      return {
        status: 200,
        body: { client: await companyApiClient(ctx as TenantRequestContext, params.id), clientSecret: rotated.clientSecret },
        headers: writeHeaders({ position: rotated.position }),
      };
    },
  }),
  routes.put('/integraciones/{id}/roles', ADMIN, {
    summary: "Change an API client's roles (effective on its next request)",
    params: ClientParams,
    body: closed({ roles: RolesSchema, reason: reasonSchema }),
    responses: writeOnRecordAnswers(
      { 200: ok('The client', ApiClientSchema, WRITE_HEADERS) },
      refusals403('outranked', 'grant'),
      client404,
    ),
    async handle({ params, body }, ctx) {
      await mustOutrankClient(ctx, params.id);
      await mustHoldWhatTheyGrant(ctx, { roles: body.roles });
      const position = await changeApiClientRoles(
        ctx.services,
        { companyId: tenantOf(ctx), clientId: params.id, roles: body.roles },
        callerOf(ctx, body.reason),
      );
      return { status: 200, body: await companyApiClient(ctx as TenantRequestContext, params.id), headers: writeHeaders({ position }) };
    },
  }),
  routes.post('/integraciones/{id}/revocacion', ADMIN, {
    summary: 'Revoke an API client: its tokens stop working at once, for good',
    params: ClientParams,
    body: closed({ reason: reasonSchema }),
    responses: writeOnRecordAnswers({ 200: ok('The client', ApiClientSchema, WRITE_HEADERS) }, refusals403('outranked'), client404, {
      conflicts: false,
    }),
    async handle({ params, body }, ctx) {
      await mustOutrankClient(ctx, params.id);
      const position = await revokeApiClient(ctx.services, params.id, callerOf(ctx, body.reason));
      return { status: 200, body: await companyApiClient(ctx as TenantRequestContext, params.id), headers: writeHeaders({ position }) };
    },
  }),
];
