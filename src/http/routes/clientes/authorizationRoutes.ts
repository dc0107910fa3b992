// /clientes/{id}/autorizaciones: issue, list (by patient), read, consume a unit for a session, release it, void, history.
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { recordHistoryAnswer, RecordHistoryEntrySchema } from '../../recordHistoryAnswer.js';
import { route, type JsonSchema, type RouteDecl } from '../../routeTypes.js';
import type { AuthorizationCommand, AuthorizationTerms } from '../../../commands/clientes/authorizationEvents.js';
import { AUTHORIZATION_CATEGORY } from '../../../commands/clientes/authorizationEvents.js';
import { authorizationCommand, issueAuthorization } from '../../../commands/clientes/authorizationWrites.js';
import { consumeForSession } from '../../../commands/clientes/payerUnitWrites.js';
import { CLIENTES_PROJECTION } from '../../../projections/clientes/clientesProjection.js';
import { clientOr404 } from '../../../queries/clientes/clients.js';
import {
  authorizationOr404,
  authorizationWithStatus,
  listAuthorizations,
  type AuthorizationListQuery,
} from '../../../queries/clientes/authorizations.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { AuthorizationView, ConsumeBody, IssueBody, READ, ReasonBody, ReleaseBody, TAG, WRITE } from './schemas.js';
import { AuthIdParams, authorizationAnswer, notFound404, Params, type AuthParams, type IdParams } from './support.js';

type Later = Exclude<AuthorizationCommand, { type: 'IssueAuthorization' | 'ReserveAuthorization' }>;

const actionRoute = (path: string, type: Later['type'], body: JsonSchema, summary: string, description: string): RouteDecl =>
  route<AuthParams, NoInput, Record<string, string>>({
    method: 'post',
    path: `/clientes/{id}/autorizaciones/{authId}/${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary,
    description,
    params: AuthIdParams,
    body,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The authorization', AuthorizationView), 404: notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id, authId } = input.params;
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const cmd = commandCtx(ctx, input.body.reason ?? null);
        // A manual consumption is judged with the session and the patient's other units (issue 21 item 17).
        const result =
          type === 'ConsumeAuthorization'
            ? await consumeForSession(ctx.services, cmd, id, authId, input.body as { sessionId: string; date: string }, ifMatch)
            : await authorizationCommand(
                ctx.services.events,
                cmd,
                id,
                authId,
                { type, data: input.body } as Pick<Exclude<Later, { type: 'ConsumeAuthorization' }>, 'type' | 'data'>,
                ifMatch,
              );
        return authorizationAnswer(ctx, id, authId, result);
      }),
  });

export const authorizationRoutes: RouteDecl[] = [
  route<IdParams, NoInput, Omit<AuthorizationTerms, 'clientId'>>({
    method: 'post',
    path: '/clientes/{id}/autorizaciones',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Issue an authorization of sessions for a patient (derivation / prior authorization of the payer)',
    description:
      'The code is unique per client (409 duplicate-authorization-code); the patient must be of the company (422 naming ' +
      'patientId); an inactive client issues none (409 client-inactive); the patient needs a coverage by this client ' +
      'sharing a day with the period (409 patient-not-covered).',
    params: Params,
    body: IssueBody,
    responses: {
      201: ok('The new authorization', AuthorizationView, { ...RECORD_HEADERS, Location: 'URL of the authorization' }),
      404: notFound404,
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { authorizationId, result } = await issueAuthorization(ctx.services.events, commandCtx(ctx), input.params.id, input.body);
        return authorizationAnswer(ctx, input.params.id, authorizationId, result, 201);
      }),
  }),
  route<IdParams, AuthorizationListQuery & MinPositionQuery>({
    method: 'get',
    path: '/clientes/{id}/autorizaciones',
    legacyQuery: ['pacienteId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The client's authorizations by start of period, optionally of one patient, with used, remaining and status",
    params: Params,
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { patientId: IdSchema, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: {
      200: { description: 'A page of authorizations', schema: pageOf(AuthorizationView) },
      400: badCursor400,
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'payerAuthorizationList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      await clientOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: await listAuthorizations(tenantCtx(ctx), input.params.id, input.query) };
    },
  }),
  route<AuthParams, MinPositionQuery>({
    method: 'get',
    path: '/clientes/{id}/autorizaciones/{authId}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read an authorization: used, remaining, the sessions that consumed it, status on the company today',
    params: AuthIdParams,
    query: { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } },
    responses: { 200: ok('The authorization', AuthorizationView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'payerAuthorization', recordId: input.params.authId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      const doc = await authorizationOr404(tenantCtx(ctx), input.params.id, input.params.authId);
      return { status: 200, body: await authorizationWithStatus(tenantCtx(ctx), doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  actionRoute(
    'consumos',
    'ConsumeAuthorization',
    ConsumeBody,
    'Consume one unit for a session (manual; completed sessions consume through the daily record)',
    "The session must be a session of the authorization's patient in this company, and the date its date (422 naming " +
      "sessionId or date; another company's session is reported as absent), whose treatment ended (409 session-not-ended). " +
      'Idempotent per session: the same session again changes nothing; a session holding a unit of another of the ' +
      "patient's authorizations is refused (409 session-already-paid), as is one beyond the contract's sessions per month " +
      '(409 monthly-cap-reached). Refused (409) when exhausted (authorization-exhausted), the date is past the period ' +
      '(authorization-expired) or before it (authorization-outside-period), or it is voided.',
  ),
  actionRoute(
    'liberaciones',
    'ReleaseAuthorization',
    ReleaseBody,
    'Give back the unit a session consumed or reserved (a cancelled consumption), with a reason',
    'Only a unit the session holds: releasing twice, or a session that holds none, answers 409 authorization-not-consumed.',
  ),
  actionRoute(
    'anulacion',
    'VoidAuthorization',
    ReasonBody,
    'Void the authorization with a reason',
    'A voided authorization pays no session.',
  ),
  route<AuthParams, { limit: number; cursor?: string; minPosition?: string }>({
    method: 'get',
    path: '/clientes/{id}/autorizaciones/{authId}/historial',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The authorization's history: issue, consumptions, releases, void; who, when, why, oldest first",
    params: AuthIdParams,
    query: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } },
    responses: {
      200: { description: 'A page of the history, oldest first', schema: pageOf(RecordHistoryEntrySchema) },
      400: badCursor400,
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'payerAuthorizationHistory', recordId: input.params.authId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      await authorizationOr404(tenantCtx(ctx), input.params.id, input.params.authId);
      return recordHistoryAnswer(tenantCtx(ctx), AUTHORIZATION_CATEGORY, input.params.authId, input.query);
    },
  }),
];
