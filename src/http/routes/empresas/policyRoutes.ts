// /empresas/actual/politica: the selected company's policy, its change (If-Match) and its history.
import { PageQuerySchema, problem } from '../../commonSchemas.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { ProblemError } from '../../../problems.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision, writeHeaders } from '../../recordHeaders.js';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { changePolicy } from '../../../commands/empresas/policyWrites.js';
import { EMPRESAS_PROJECTION } from '../../../projections/empresas/empresasProjection.js';
import { policyView, type PolicyView as PolicyAnswer } from '../../../queries/empresas/companyPolicy.js';
import type { PolicyDoc } from '../../../projections/empresas/policyDoc.js';
import { DEFAULT_POLICY } from '../../../commands/empresas/shared/policySettings.js';
import { policyModel } from '../../../queries/empresas/readModel.js';
import { policyHistory } from '../../../queries/empresas/policyHistory.js';
import {
  commandCtx,
  IF_MATCH_PROBLEMS,
  ok,
  pageResponses,
  READ_HEADERS,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from '../shared/recordSupport.js';
import { ADMIN, READ, TAG } from './support.js';
import { ChangePolicyBody, PolicyHistoryEntry, PolicyView } from './policySchemas.js';

const PATH = '/empresas/actual/politica';

/** If-Match of the policy: W/"-1" names the defaults (nothing recorded yet); '*' protects nothing, so it counts as absent. */
function policyIfMatch(header: string | undefined): number {
  if (header !== undefined && /^\s*(?:W\/)?"-1"\s*$/.test(header)) return -1;
  return ifMatchRevision(header, { required: true });
}

const currentView = (ctx: RequestContext) => policyView(ctx.services, tenantCtx(ctx).auth.tenantId);
const docView = (doc: PolicyDoc): PolicyAnswer => ({
  revision: doc.revision,
  settings: doc.settings,
  updatedAt: doc.updatedAt,
  updatedBy: doc.updatedBy,
});

/** The policy at a point: folded from its stream; at an instant before its first change, the defaults then in force. */
async function policyAt(ctx: RequestContext, point: NonNullable<ReturnType<typeof pointOf>>) {
  const scope = tenantCtx(ctx);
  try {
    const at = await policyModel.at(scope, scope.auth.tenantId, point);
    return { status: 200, body: docView(at.doc), headers: await asOfHeaders(ctx, at) };
  } catch (error) {
    if (!('asOf' in point) || !(error instanceof ProblemError) || error.status !== 404) throw error;
    return {
      status: 200,
      body: { revision: -1, settings: DEFAULT_POLICY, updatedAt: null, updatedBy: null },
      headers: { ETag: etagOf(-1) },
    };
  }
}

export const policyRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: PATH,
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The selected company's policy",
    description:
      'Clinical and administrative settings other groups decide with (reuse limits, TCV threshold, maintenance, adequacy flags...). ' +
      'revision -1 (ETag W/"-1") means nothing was recorded and the defaults apply (asOf an instant before the first change too).',
    query: RecordReadQuerySchema,
    responses: { 200: ok('The policy in force', PolicyView, READ_HEADERS), 404: problem('No such version'), 503: unavailable503 },
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      if (point) return policyAt(ctx, point);
      await awaitMinPosition(ctx, input.query.minPosition, [EMPRESAS_PROJECTION]);
      const body = await currentView(ctx);
      return { status: 200, body, headers: { ETag: etagOf(body.revision) } };
    },
  }),
  route({
    method: 'put',
    path: PATH,
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary: "Change the company's policy",
    description:
      'A partial change (deep merge: objects merge key by key, values and lists replace) with a required reason. If-Match is required ' +
      '(428 without it, 412 when the policy changed since; W/"-1" while the defaults apply). A change that changes nothing answers 200 and records nothing. ' +
      'Out-of-range or inconsistent values answer 422 naming each field (/body/settings/...).',
    body: ChangePolicyBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: { 200: ok('The policy after the change', PolicyView), ...IF_MATCH_PROBLEMS },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = policyIfMatch(input.headers['if-match']);
        const result = await changePolicy(ctx.services, commandCtx(ctx, input.body.reason.trim()), input.body, ifMatch);
        // Nothing recorded on the defaults (revision -1): the policy in force; else the record at least at the write.
        const scope = tenantCtx(ctx);
        const doc = result.revision < 0 ? null : await policyModel.latest(scope, scope.auth.tenantId, result);
        const body = doc
          ? { revision: doc.revision, settings: doc.settings, updatedAt: doc.updatedAt, updatedBy: doc.updatedBy }
          : await currentView(ctx);
        const headers = writeHeaders({ revision: body.revision, position: result.position });
        return { status: 200, body, headers: { ...headers, ETag: etagOf(body.revision) } };
      }),
  }),
  route({
    method: 'get',
    path: `${PATH}/historial`,
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The policy's history: every recorded change, oldest first",
    description: 'Who (actor), when (occurredAt), why (reason), the fields changed with their values before and after, and the revisions.',
    query: PageQuerySchema,
    responses: pageResponses('A page of the history', PolicyHistoryEntry),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [EMPRESAS_PROJECTION]);
      // Ajv's useDefaults filled limit from the schema's default.
      return { status: 200, body: await policyHistory(tenantCtx(ctx), input.query.limit, input.query.cursor, input.query.updatedSince) };
    },
  }),
];
