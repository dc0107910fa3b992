// One route factory for both bloodline groups: receive, list, read, assign, record a use, reprocess, discard, the
// floor queries (ready for the next session, near the maximum) and the history, under each kind's own path and tag.
import Type, { type Static, type TSchema } from 'typebox';
import { MinPositionField, pageOf, PageQueryFields } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { LINE_STATUSES, type LineType } from '../../../commands/lineas/bloodlineEvents.js';
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
import { bloodlineModels, bloodlinesNearMaximum, listBloodlines, readyBloodlines } from '../../../queries/lineas/bloodlines.js';
import type { WriteOutcome } from '../../../queries/recordModel.js';
import { LIMITS } from '../../../limits.js';
import { badCursor400, commandCtx, tenantCtx, unavailable503 } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
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

/** The route kit of one kind of line: its record model, 404 and write answer. */
export const lineKit = (c: LineGroupConfig) =>
  recordKit({
    tag: c.tag,
    base: c.base,
    read: c.read,
    write: c.write,
    noun: c.noun,
    model: bloodlineModels[c.lineType],
    view: bloodlineView,
    viewSchema: LineView,
    auditAs: 'bloodline',
  });

export function lineRoutes(c: LineGroupConfig): RouteDecl[] {
  const { lineType } = c;
  const lines = lineKit(c);
  type Step<B> = (ctx: RequestContext, id: string, body: B, ifMatch: number | null) => Promise<WriteOutcome>;
  /** A step in the line's life: If-Match optional. */
  const step = <B extends TSchema>(path: string, summary: string, description: string, body: B, write: Step<Static<B>>): RouteDecl =>
    lines.action({ path, summary, description, body, handle: (id, input, ctx, ifMatch) => write(ctx, id, input, ifMatch) });

  return [
    lines.create({
      summary: `Receive a ${c.noun} into stock`,
      description:
        'The serial is unique within the company for this kind of line (trimmed, ignoring case): a second one answers 409 duplicate-serial.',
      body: ReceiveBody,
      idKey: 'lineId',
      handle: (body, ctx) => receiveBloodline(ctx.services, commandCtx(ctx), lineType, body),
    }),
    lines.list({
      summary: `List ${c.noun}s, newest reception first`,
      filters: { status: Type.Optional(Type.Enum(LINE_STATUSES)), patientId: Type.Optional(IdSchema) },
      list: (scope, query) => listBloodlines(scope, lineType, query),
    }),
    route({
      method: 'get',
      path: `${c.base}/listas`,
      legacyQuery: ['pacienteId'],
      tag: c.tag,
      auth: 'tenant',
      permission: c.read,
      summary: `The patient's ${c.noun}s (not discarded) and whether each is ready for the next session, with why not`,
      description: 'Judged by the company policy in force now: a used line awaits reprocessing; a line at its maximum uses is spent.',
      query: Type.Object({ patientId: IdSchema, ...MinPositionField }, { additionalProperties: false }),
      responses: { 200: { description: 'The lines with their readiness', schema: ReadyView }, 503: unavailable503 },
      auditAccess: (input) => ({ recordType: 'bloodlineList', recordId: input.query.patientId ?? null }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [LINEAS_PROJECTION]);
        return { status: 200, body: await readyBloodlines(tenantCtx(ctx), lineType, input.query.patientId) };
      },
    }),
    route({
      method: 'get',
      path: `${c.base}/cerca-del-maximo`,
      legacyQuery: ['margen'],
      tag: c.tag,
      auth: 'tenant',
      permission: c.read,
      summary: `${c.noun}s in service with at most \`margin\` uses left, fewest first`,
      query: Type.Object(
        {
          margin: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: LIMITS.bloodlines.nearMaximumDefaultMargin })),
          ...PageQueryFields,
          ...MinPositionField,
        },
        { additionalProperties: false },
      ),
      responses: { 200: { description: 'A page of lines', schema: pageOf(LineView) }, 400: badCursor400, 503: unavailable503 },
      auditAccess: () => ({ recordType: 'bloodlineList', recordId: null }),
      handle: async (input, ctx) => {
        await awaitMinPosition(ctx, input.query.minPosition, [LINEAS_PROJECTION]);
        const { margin, cursor, updatedSince } = input.query;
        // Ajv's useDefaults filled limit from the schema's default.
        const limit = input.query.limit;
        const query = {
          margin: margin ?? LIMITS.bloodlines.nearMaximumDefaultMargin,
          limit,
          ...(cursor ? { cursor } : {}),
          ...(updatedSince ? { updatedSince } : {}),
        };
        return { status: 200, body: await bloodlinesNearMaximum(tenantCtx(ctx), lineType, query) };
      },
    }),
    lines.read({ summary: `Read a ${c.noun}` }),
    step(
      'asignacion',
      `Assign a ${c.noun} to a patient (for life)`,
      'Its maximum uses come from the company policy (bloodlineReuse.maxUses when reuse is enabled and the line is reusable; 1 otherwise). A patient of another company answers 422 naming patientId.',
      AssignBody,
      (ctx, id, body, ifMatch) => assignBloodline(ctx.services, commandCtx(ctx), lineType, id, body.patientId, ifMatch),
    ),
    step(
      'usos',
      `Record by hand the use of a ${c.noun} in an ended session (back-entry)`,
      "A session's start claims its lines and its end records the use; by hand only for a session of this patient in this company (422 naming sessionId) that has ended (409 session-not-ended: a running session keeps its lines) and used this line (409 not-equipment-of-session); a use already counted changes nothing. Refused for another patient, over the maximum, awaiting reprocessing or discarded. A line that reaches its maximum (a single-use line after its use) is discarded by the use itself.",
      UseBody,
      (ctx, id, body, ifMatch) => recordBloodlineUseByHand(ctx.services, commandCtx(ctx), lineType, id, body, ifMatch),
    ),
    step(
      'reprocesos',
      `Record the reprocessing (disinfection) of a used ${c.noun}`,
      'Refused (409 bloodline-reuse-disabled) unless the company policy enables bloodline reuse; a failed integrity check discards the line.',
      ReprocessBody,
      (ctx, id, body, ifMatch) => reprocessBloodline(ctx.services, commandCtx(ctx), lineType, id, body, ifMatch),
    ),
    step(
      'prueba-residual',
      `Record the residual germicide test of a reprocessed ${c.noun}, after rinsing`,
      'A reused line goes into a session only with a negative test recorded since its reprocessing, and after the germicide dwell.',
      ResidualTestBody,
      (ctx, id, body, ifMatch) => recordResidualTest(ctx.services, commandCtx(ctx), lineType, id, body, ifMatch),
    ),
    step(
      'descarte',
      `Discard a ${c.noun} (terminal)`,
      'With a reason from the list; a discarded line is never used again.',
      DiscardBody,
      (ctx, id, body, ifMatch) => discardBloodline(ctx.services, commandCtx(ctx, body.note ?? null), lineType, id, body, ifMatch),
    ),
    lines.history({
      summary: `The ${c.noun}'s history: who, when, why and what of every change, oldest first`,
      auditAs: 'bloodlineHistory',
    }),
  ];
}
