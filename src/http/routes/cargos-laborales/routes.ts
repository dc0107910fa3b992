// /cargos-laborales: create, list, read, correct (If-Match), deactivate, reactivate, and the position's history.
import { recordAnswer } from '../../recordAnswer.js';
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { roleOf } from '../../../permissions/builtInRoles.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { streamName } from '../../../stores/eventStore.js';
import { notFoundProblem, ProblemError } from '../../../problems.js';
import {
  POSITION_STATUSES,
  type JobPositionFields,
  type JobPositionPatch,
  JOB_POSITION_CATEGORY,
} from '../../../commands/cargos-laborales/jobPositionEvents.js';
import { changePositionStatus, correctJobPosition, createJobPosition } from '../../../commands/cargos-laborales/jobPositionWrites.js';
import { CARGOS_PROJECTION } from '../../../projections/cargos-laborales/cargosProjection.js';
import { jobPositionView } from '../../../projections/cargos-laborales/jobPositionDoc.js';
import {
  jobPositionAfterWrite,
  jobPositionOr404,
  listJobPositions,
  type JobPositionListQuery,
} from '../../../queries/cargos-laborales/jobPositions.js';
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
import { IdSchema } from '../shared/fieldSchemas.js';
import { CorrectPositionBody, CreatePositionBody, PositionView, READ, ReasonBody, TAG, WRITE } from './schemas.js';

type IdParams = { id: string };
const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
const notFound404 = problem("No such job position in the selected company (another company's position is reported the same way)");
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

const positionRecord = { afterWrite: jobPositionAfterWrite, view: jobPositionView, location: (id: string) => `/cargos-laborales/${id}` };
const positionAnswer = (ctx: RequestContext, id: string, result: CommandResult<unknown>, status: number): Promise<HttpResult> =>
  recordAnswer(ctx, positionRecord, id, result, status);

const statusRoute = (path: string, type: 'DeactivateJobPosition' | 'ReactivateJobPosition', summary: string): RouteDecl =>
  route<IdParams, NoInput, { reason: string }>({
    method: 'post',
    path: `/cargos-laborales/{id}/${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary,
    params: Params,
    body: ReasonBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The position', PositionView), 404: notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const { reason } = input.body;
        const result = await changePositionStatus(ctx.services.events, commandCtx(ctx, reason), input.params.id, type, reason, ifMatch);
        return positionAnswer(ctx, input.params.id, result, 200);
      }),
  });

/** Suggested roles name roles of this company (built-in or its own): 422 naming suggestedRoles otherwise. */
async function mustBeCompanyRoles(ctx: RequestContext, roles: string[]): Promise<void> {
  const company = await platformCollections(ctx.services).companies.get(PLATFORM_DOCS, tenantCtx(ctx).auth.tenantId);
  const unknown = roles.filter((code) => !roleOf(company?.roles ?? {}, code));
  if (unknown.length === 0) return;
  const message = `not roles of this company: ${unknown.join(', ')}`;
  throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', `suggestedRoles: ${message}`, {}, [
    { pointer: '/body/suggestedRoles', message },
  ]);
}

export const cargosRoutes: RouteDecl[] = [
  route<NoInput, NoInput, Omit<JobPositionFields, 'suggestedRoles'> & { suggestedRoles?: string[] }>({
    method: 'post',
    path: '/cargos-laborales',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Create a job position',
    description: 'The code is unique within the company (trimmed, ignoring case): a second one answers 409 duplicate-code.',
    body: CreatePositionBody,
    responses: { 201: ok('The new position', PositionView, { ...RECORD_HEADERS, Location: 'URL of the position' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        await mustBeCompanyRoles(ctx, input.body.suggestedRoles ?? []);
        const { positionId, result } = await createJobPosition(ctx.services.events, commandCtx(ctx), {
          ...input.body,
          suggestedRoles: input.body.suggestedRoles ?? [],
        });
        return positionAnswer(ctx, positionId, result, 201);
      }),
  }),
  route<NoInput, JobPositionListQuery & MinPositionQuery>({
    method: 'get',
    path: '/cargos-laborales',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List job positions by code',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: { status: { enum: [...POSITION_STATUSES] }, ...pageQueryProperties, ...minPositionQueryProperty },
    },
    responses: { 200: { description: 'A page of positions', schema: pageOf(PositionView) }, 400: badCursor400, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CARGOS_PROJECTION]);
      return { status: 200, body: await listJobPositions(tenantCtx(ctx), input.query) };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/cargos-laborales/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a job position',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The position', PositionView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [CARGOS_PROJECTION]);
      const doc = await jobPositionOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: jobPositionView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route<IdParams, NoInput, JobPositionPatch & { reason: string }>({
    method: 'patch',
    path: '/cargos-laborales/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: 'Correct a job position',
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the position changed). A new code must still be unique (409).',
    params: Params,
    body: CorrectPositionBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: {
      200: ok('The corrected position', PositionView),
      404: notFound404,
      409: conflict409,
      412: precondition412,
      428: required428,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const header = input.headers['if-match'];
        const ifMatch = ifMatchRevision(header, { required: true });
        const { reason, ...patch } = input.body;
        if (patch.suggestedRoles) {
          // Another company's position answers 404 before its body is judged.
          const stream = streamName(tenantCtx(ctx).auth.tenantId, JOB_POSITION_CATEGORY, input.params.id);
          if ((await ctx.services.events.readStream(stream, { maxCount: 1 })).length === 0) throw notFoundProblem('Job position not found');
          await mustBeCompanyRoles(ctx, patch.suggestedRoles);
        }
        const result = await correctJobPosition(ctx.services.events, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return positionAnswer(ctx, input.params.id, result, 200);
      }),
  }),
  statusRoute('desactivacion', 'DeactivateJobPosition', 'Deactivate a job position (its staff keep it; no one new gets it)'),
  statusRoute('reactivacion', 'ReactivateJobPosition', 'Reactivate a job position'),
  historyRoute({
    path: '/cargos-laborales/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The position's history: who, when, why and what of every change, oldest first",
    params: Params,
    idParam: 'id',
    category: JOB_POSITION_CATEGORY,
    projection: CARGOS_PROJECTION,
    notFound: notFound404,
    exists: jobPositionOr404,
  }),
];
