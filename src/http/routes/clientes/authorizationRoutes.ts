// /clientes/{id}/autorizaciones: issue, list (by patient), read, consume a unit for a session, release it, void, history.
import Type, { type Static, type TSchema } from 'typebox';
import { MinPositionField, pageOf, PageQueryFields } from '../../commonSchemas.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { recordAnswer, type RecordAnswerModel, type WriteOutcome } from '../../recordAnswer.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import type { RequestContext, RouteDecl } from '../../routeTypes.js';
import type { CommandContext } from '../../../commands/handleCommand.js';
import { authorizationCommand, issueAuthorization } from '../../../commands/clientes/authorizationWrites.js';
import { consumeForSession } from '../../../commands/clientes/payerUnitWrites.js';
import { CLIENTES_PROJECTION } from '../../../projections/clientes/clientesProjection.js';
import type { AuthorizationDoc } from '../../../projections/clientes/authorizationDoc.js';
import { authorizationModel, clientModel } from '../../../queries/clientes/clients.js';
import {
  authorizationOfClient,
  authorizationOfClientAt,
  authorizationWithStatus,
  listAuthorizations,
} from '../../../queries/clientes/authorizations.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  createdOk,
  ok,
  precondition412,
  READ_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { IdParams, IdSchema, ReasonBody } from '../shared/fieldSchemas.js';
import { AuthIdParams, AuthorizationView, ConsumeBody, IssueBody, READ, ReleaseBody, TAG, WRITE } from './schemas.js';
import { underClient404 } from './support.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const routes = groupRoutes(TAG);

/** The authorization after a write, with its status on the company's today; a 201 points at it under its client. */
const authorizationRecord = (clientId: string): RecordAnswerModel<AuthorizationDoc> => ({
  latest: authorizationModel.latest,
  view: (doc, scope) => authorizationWithStatus(scope, doc),
  location: (authId) => `/clientes/${clientId}/autorizaciones/${authId}`,
});

type Run<B> = (
  ctx: RequestContext,
  cmd: CommandContext,
  clientId: string,
  authId: string,
  body: B,
  ifMatch: number | null,
) => Promise<WriteOutcome>;

/** The run of an action that records one authorization event, the body as its data. */
const recording =
  (type: 'ReleaseAuthorization' | 'VoidAuthorization'): Run<Static<typeof ReleaseBody> | Static<typeof ReasonBody>> =>
  (ctx, cmd, clientId, authId, body, ifMatch) =>
    authorizationCommand(ctx.services.events, cmd, clientId, authId, { type, data: body }, ifMatch);

const action = <B extends TSchema>(path: string, body: B, summary: string, description: string, run: Run<Static<B>>): RouteDecl =>
  routes.post(`/clientes/{id}/autorizaciones/{authId}/${path}`, WRITE, {
    summary,
    description,
    params: AuthIdParams,
    body,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The authorization', AuthorizationView), 404: underClient404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id, authId } = input.params;
        const reason = (input.body as { reason?: string }).reason ?? null;
        const result = await run(
          ctx,
          commandCtx(ctx, reason),
          id,
          authId,
          input.body as Static<B>,
          ifMatchRevision(input.headers['if-match']),
        );
        return recordAnswer(ctx, authorizationRecord(id), authId, result, 200);
      }),
  });

const ListQuery = Type.Object(
  { patientId: Type.Optional(IdSchema), ...PageQueryFields, ...MinPositionField },
  { additionalProperties: false },
);

export const authorizationRoutes: RouteDecl[] = [
  routes.post('/clientes/{id}/autorizaciones', WRITE, {
    idempotent: true,
    summary: 'Issue an authorization of sessions for a patient (derivation / prior authorization of the payer)',
    description:
      'The code is unique per client (409 duplicate-authorization-code); the patient must be of the company (422 naming ' +
      'patientId); an inactive client issues none (409 client-inactive); the patient needs a coverage by this client ' +
      'sharing a day with the period (409 patient-not-covered).',
    params: IdParams,
    body: IssueBody,
    responses: {
      201: createdOk('The new authorization', AuthorizationView, 'URL of the authorization'),
      404: underClient404,
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { authorizationId, result } = await issueAuthorization(ctx.services.events, commandCtx(ctx), input.params.id, input.body);
        return recordAnswer(ctx, authorizationRecord(input.params.id), authorizationId, result, 201);
      }),
  }),
  routes.get('/clientes/{id}/autorizaciones', READ, {
    legacyQuery: ['pacienteId'],
    summary: "The client's authorizations by start of period, optionally of one patient, with used, remaining and status",
    params: IdParams,
    query: ListQuery,
    responses: {
      200: { description: 'A page of authorizations', schema: pageOf(AuthorizationView) },
      400: badCursor400,
      404: underClient404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'payerAuthorizationList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      await clientModel.or404(tenantCtx(ctx), input.params.id);
      // Ajv's useDefaults filled limit from the schema's default.
      const query = input.query as Static<typeof ListQuery> & { limit: number };
      return { status: 200, body: await listAuthorizations(tenantCtx(ctx), input.params.id, query) };
    },
  }),
  routes.get('/clientes/{id}/autorizaciones/{authId}', READ, {
    summary: 'Read an authorization: used, remaining, the sessions that consumed it, status on the company today',
    params: AuthIdParams,
    query: RecordReadQuerySchema,
    responses: {
      200: ok('The authorization', AuthorizationView, READ_HEADERS),
      404: underClient404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'payerAuthorization', recordId: input.params.authId }),
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      if (point) {
        const { at, view } = await authorizationOfClientAt(tenantCtx(ctx), input.params.id, input.params.authId, point);
        return { status: 200, body: view, headers: await asOfHeaders(ctx, at) };
      }
      await awaitMinPosition(ctx, input.query.minPosition, [CLIENTES_PROJECTION]);
      const doc = await authorizationOfClient(tenantCtx(ctx), input.params.id, input.params.authId);
      return { status: 200, body: await authorizationWithStatus(tenantCtx(ctx), doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  action(
    'consumos',
    ConsumeBody,
    'Consume one unit for a session (manual; completed sessions consume through the daily record)',
    "The session must be a session of the authorization's patient in this company, and the date its date (422 naming " +
      "sessionId or date; another company's session is reported as absent), whose treatment ended (409 session-not-ended). " +
      'Idempotent per session: the same session again changes nothing; a session holding a unit of another of the ' +
      "patient's authorizations is refused (409 session-already-paid), as is one beyond the contract's sessions per month " +
      '(409 monthly-cap-reached). Refused (409) when exhausted (authorization-exhausted), the date is past the period ' +
      '(authorization-expired) or before it (authorization-outside-period), or it is voided.',
    // A manual consumption is judged with the session and the patient's other units (issue 21 item 17).
    (ctx, cmd, clientId, authId, body, ifMatch) => consumeForSession(ctx.services, cmd, clientId, authId, body, ifMatch),
  ),
  action(
    'liberaciones',
    ReleaseBody,
    'Give back the unit a session consumed or reserved (a cancelled consumption), with a reason',
    'Only a unit the session holds: releasing twice, or a session that holds none, answers 409 authorization-not-consumed.',
    recording('ReleaseAuthorization'),
  ),
  action(
    'anulacion',
    ReasonBody,
    'Void the authorization with a reason',
    'A voided authorization pays no session.',
    recording('VoidAuthorization'),
  ),
  historyRoute({
    path: '/clientes/{id}/autorizaciones/{authId}/historial',
    tag: TAG,
    permission: READ,
    summary: "The authorization's history: issue, consumptions, releases, void; who, when, why, oldest first",
    params: AuthIdParams,
    idParam: 'authId',
    auditAs: 'payerAuthorizationHistory',
    category: authorizationModel.category,
    fold: authorizationModel.fold,
    projection: CLIENTES_PROJECTION,
    notFound: underClient404,
    exists: (scope, authId, params) => authorizationOfClient(scope, params.id!, authId),
  }),
];
