// One route factory for both bloodline groups: receive, list, read, assign, record a use, reprocess, discard, the
// floor queries (ready for the next session, near the maximum) and the history, under each kind's own path and tag.
import { recordAnswer } from '../../recordAnswer.js';
import { minPositionQueryProperty, pageOf, pageQueryProperties, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type HttpResult, type JsonSchema, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import {
  LINE_STATUSES,
  type DiscardReason,
  type LineFields,
  type LineType,
  type ResidualResult,
  LINE_CATEGORIES,
} from '../../../commands/lineas/bloodlineEvents.js';
import {
  assignBloodline,
  discardBloodline,
  receiveBloodline,
  recordBloodlineUseByHand,
  recordResidualTest,
  reprocessBloodline,
} from '../../../commands/lineas/bloodlineWrites.js';
import { LINEAS_PROJECTION } from '../../../projections/lineas/lineasProjection.js';
import { bloodlineView } from '../../../projections/lineas/bloodlineDoc.js';
import {
  bloodlineAfterWrite,
  bloodlineOr404,
  bloodlinesNearMaximum,
  listBloodlines,
  readyBloodlines,
  type BloodlineListQuery,
} from '../../../queries/lineas/bloodlines.js';
import { LIMITS } from '../../../limits.js';
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
  type PageQuery,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { AssignBody, DiscardBody, LineView, ReadyView, ReceiveBody, ReprocessBody, ResidualTestBody, UseBody } from './schemas.js';

/** What differs between the two groups. */
export interface LineGroupConfig {
  lineType: LineType;
  tag: string;
  base: string;
  read: string;
  write: string;
  /** Name of the line in texts, e.g. 'arterial line'. */
  noun: string;
}

export type IdParams = { id: string };
export const Params: JsonSchema = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

export const notFound404 = (c: LineGroupConfig) =>
  problem(`No such ${c.noun} in the selected company (another company's line is reported the same way)`);

/** The answer of a write: the line as written, with its ETag and the position to read it anywhere. */
export const lineAnswer = (
  ctx: RequestContext,
  c: LineGroupConfig,
  id: string,
  result: CommandResult<unknown>,
  status: number,
): Promise<HttpResult> =>
  recordAnswer(
    ctx,
    {
      afterWrite: (scope, lineId, written) => bloodlineAfterWrite(scope, c.lineType, lineId, written),
      view: bloodlineView,
      location: (lineId) => `${c.base}/${lineId}`,
    },
    id,
    result,
    status,
  );

type Step<B> = (ctx: RequestContext, id: string, body: B, ifMatch: number | null) => Promise<CommandResult<unknown>>;

function stepRoute<B>(c: LineGroupConfig, path: string, summary: string, description: string, body: JsonSchema, step: Step<B>): RouteDecl {
  return route<IdParams, NoInput, B>({
    method: 'post',
    path: `${c.base}/{id}/${path}`,
    tag: c.tag,
    auth: 'tenant',
    permission: c.write,
    summary,
    description,
    params: Params,
    body,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok(`The ${c.noun}`, LineView), 404: notFound404(c), 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await step(ctx, input.params.id, input.body, ifMatch);
        return lineAnswer(ctx, c, input.params.id, result, 200);
      }),
  });
}

export function lineRoutes(c: LineGroupConfig): RouteDecl[] {
  const { lineType } = c;
  return [
    route<NoInput, NoInput, LineFields>({
      method: 'post',
      path: c.base,
      tag: c.tag,
      auth: 'tenant',
      permission: c.write,
      idempotent: true,
      summary: `Receive a ${c.noun} into stock`,
      description:
        'The serial is unique within the company for this kind of line (trimmed, ignoring case): a second one answers 409 duplicate-serial.',
      body: ReceiveBody,
      responses: { 201: ok(`The new ${c.noun}`, LineView, { ...RECORD_HEADERS, Location: 'URL of the line' }), 409: conflict409 },
      handle: (input, ctx) =>
        withFieldPointers(async () => {
          const { lineId, result } = await receiveBloodline(ctx.services, commandCtx(ctx), lineType, input.body);
          return lineAnswer(ctx, c, lineId, result, 201);
        }),
    }),
    route<NoInput, BloodlineListQuery & MinPositionQuery>({
      method: 'get',
      path: c.base,
      tag: c.tag,
      auth: 'tenant',
      permission: c.read,
      summary: `List ${c.noun}s, newest reception first`,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { status: { enum: [...LINE_STATUSES] }, patientId: IdSchema, ...pageQueryProperties, ...minPositionQueryProperty },
      },
      responses: { 200: { description: 'A page of lines', schema: pageOf(LineView) }, 400: badCursor400, 503: unavailable503 },
      auditAccess: () => ({ recordType: 'bloodlineList', recordId: null }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [LINEAS_PROJECTION]);
        return { status: 200, body: await listBloodlines(tenantCtx(ctx), lineType, input.query) };
      },
    }),
    route<NoInput, { patientId: string } & MinPositionQuery>({
      method: 'get',
      path: `${c.base}/listas`,
      legacyQuery: ['pacienteId'],
      tag: c.tag,
      auth: 'tenant',
      permission: c.read,
      summary: `The patient's ${c.noun}s (not discarded) and whether each is ready for the next session, with why not`,
      description: 'Judged by the company policy in force now: a used line awaits reprocessing; a line at its maximum uses is spent.',
      query: {
        type: 'object',
        additionalProperties: false,
        required: ['patientId'],
        properties: { patientId: IdSchema, ...minPositionQueryProperty },
      },
      responses: { 200: { description: 'The lines with their readiness', schema: ReadyView }, 503: unavailable503 },
      auditAccess: (input) => ({ recordType: 'bloodlineList', recordId: input.query.patientId ?? null }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [LINEAS_PROJECTION]);
        return { status: 200, body: await readyBloodlines(tenantCtx(ctx), lineType, input.query.patientId) };
      },
    }),
    route<NoInput, PageQuery & { margin?: number }>({
      method: 'get',
      path: `${c.base}/cerca-del-maximo`,
      legacyQuery: ['margen'],
      tag: c.tag,
      auth: 'tenant',
      permission: c.read,
      summary: `${c.noun}s in service with at most \`margin\` uses left, fewest first`,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          margin: { type: 'integer', minimum: 0, maximum: 100, default: LIMITS.bloodlines.nearMaximumDefaultMargin },
          ...pageQueryProperties,
          ...minPositionQueryProperty,
        },
      },
      responses: { 200: { description: 'A page of lines', schema: pageOf(LineView) }, 400: badCursor400, 503: unavailable503 },
      auditAccess: () => ({ recordType: 'bloodlineList', recordId: null }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [LINEAS_PROJECTION]);
        const { margin, limit, cursor } = input.query;
        const query = { margin: margin ?? LIMITS.bloodlines.nearMaximumDefaultMargin, limit, ...(cursor ? { cursor } : {}) };
        return { status: 200, body: await bloodlinesNearMaximum(tenantCtx(ctx), lineType, query) };
      },
    }),
    route<IdParams, MinPositionQuery>({
      method: 'get',
      path: `${c.base}/{id}`,
      tag: c.tag,
      auth: 'tenant',
      permission: c.read,
      summary: `Read a ${c.noun}`,
      params: Params,
      query: minPositionOnly,
      responses: { 200: ok(`The ${c.noun}`, LineView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404(c), 503: unavailable503 },
      auditAccess: (input) => ({ recordType: 'bloodline', recordId: input.params.id }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [LINEAS_PROJECTION]);
        const doc = await bloodlineOr404(tenantCtx(ctx), lineType, input.params.id);
        return { status: 200, body: bloodlineView(doc), headers: { ETag: etagOf(doc.revision) } };
      },
    }),
    stepRoute<{ patientId: string }>(
      c,
      'asignacion',
      `Assign a ${c.noun} to a patient (for life)`,
      'Its maximum uses come from the company policy (bloodlineReuse.maxUses when reuse is enabled and the line is reusable; 1 otherwise). A patient of another company answers 422 naming patientId.',
      AssignBody,
      (ctx, id, body, ifMatch) => assignBloodline(ctx.services, commandCtx(ctx), lineType, id, body.patientId, ifMatch),
    ),
    stepRoute<{ sessionId: string; patientId: string }>(
      c,
      'usos',
      `Record by hand the use of a ${c.noun} in an ended session (back-entry)`,
      "A session's start claims its lines and its end records the use; by hand only for a session of this patient in this company (422 naming sessionId) that has ended (409 session-not-ended: a running session keeps its lines) and used this line (409 not-equipment-of-session); a use already counted changes nothing. Refused for another patient, over the maximum, awaiting reprocessing or discarded. A line that reaches its maximum (a single-use line after its use) is discarded by the use itself.",
      UseBody,
      (ctx, id, body, ifMatch) => recordBloodlineUseByHand(ctx.services, commandCtx(ctx), lineType, id, body, ifMatch),
    ),
    stepRoute<{ disinfectant: string; integrity: 'passed' | 'leak' | 'kinked-or-cracked' | 'clotted'; fillTime?: string }>(
      c,
      'reprocesos',
      `Record the reprocessing (disinfection) of a used ${c.noun}`,
      'Refused (409 bloodline-reuse-disabled) unless the company policy enables bloodline reuse; a failed integrity check discards the line.',
      ReprocessBody,
      (ctx, id, body, ifMatch) => reprocessBloodline(ctx.services, commandCtx(ctx), lineType, id, body, ifMatch),
    ),
    stepRoute<{ result: ResidualResult }>(
      c,
      'prueba-residual',
      `Record the residual germicide test of a reprocessed ${c.noun}, after rinsing`,
      'A reused line goes into a session only with a negative test recorded since its reprocessing, and after the germicide dwell.',
      ResidualTestBody,
      (ctx, id, body, ifMatch) => recordResidualTest(ctx.services, commandCtx(ctx), lineType, id, body, ifMatch),
    ),
    stepRoute<{ reason: DiscardReason; note?: string }>(
      c,
      'descarte',
      `Discard a ${c.noun} (terminal)`,
      'With a reason from the list; a discarded line is never used again.',
      DiscardBody,
      (ctx, id, body, ifMatch) => discardBloodline(ctx.services, commandCtx(ctx, body.note ?? null), lineType, id, body, ifMatch),
    ),
    historyRoute({
      path: `${c.base}/{id}/historial`,
      tag: c.tag,
      permission: c.read,
      summary: `The ${c.noun}'s history: who, when, why and what of every change, oldest first`,
      params: Params,
      idParam: 'id',
      auditAs: 'bloodlineHistory',
      category: LINE_CATEGORIES[lineType],
      projection: LINEAS_PROJECTION,
      notFound: notFound404(c),
      exists: (scope, id) => bloodlineOr404(scope, lineType, id),
    }),
  ];
}
