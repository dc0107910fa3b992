// GET .../{id}/historial of a record kept in one stream: the page with its positions sealed like X-Event-Position.
import { recordHistory, type HistoryFold } from '../queries/recordHistory.js';
import type { TenantScope } from '../queries/tenantScope.js';
import { InvalidCursorError } from '../stores/readCursor.js';
import Type, { type TObject, type TString } from 'typebox';
import { ConsistencyTokenSchema, MinPositionField, pageOf, PageQueryFields, problem } from './commonSchemas.js';
import { awaitMinPosition } from './readYourWrites.js';
import { consistencyTokens } from './consistencyToken.js';
import {
  route,
  type HttpResult,
  type JsonSchema,
  type RequestContext,
  type ResponseDecl,
  type RouteDecl,
  type TenantRequestContext,
} from './routeTypes.js';

export const FieldChangesSchema: JsonSchema = {
  type: 'array',
  description: 'What the event changed, field by field (null where absent); read a version whole with `?version=<revision>`',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['field', 'from', 'to'],
    properties: {
      field: { type: 'string', description: 'JSON pointer of the field' },
      from: { description: 'Before' },
      to: { description: 'After' },
    },
  },
};

export const RecordHistoryEntrySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['position', 'revision', 'type', 'occurredAt', 'actor', 'reason', 'correlationId', 'data'],
  properties: {
    position: ConsistencyTokenSchema,
    revision: { type: 'integer', minimum: 0 },
    type: { type: 'string', description: 'Event type (what happened)' },
    occurredAt: { type: 'string', format: 'date-time', description: 'When (UTC)' },
    actor: { type: 'string', description: 'Who: user id' },
    reason: { type: ['string', 'null'], description: 'Why, when the command had a reason' },
    correlationId: { type: 'string' },
    data: { type: 'object', description: 'What: the event data' },
    changes: FieldChangesSchema,
  },
};

export async function recordHistoryAnswer(
  ctx: RequestContext & TenantScope,
  category: string,
  id: string,
  query: { limit: number; cursor?: string; updatedSince?: string },
  fold?: HistoryFold,
): Promise<HttpResult> {
  // Positions leave sealed: usable as minPosition, silent about other companies' writes.
  const tokens = await consistencyTokens(ctx.services);
  const after = query.cursor === undefined ? null : tokens.open(query.cursor);
  if (after === null && query.cursor !== undefined) throw new InvalidCursorError();
  const page = await recordHistory(ctx, category, id, query.limit, after, fold, query.updatedSince);
  const items = page.items.map((e) => ({ ...e, position: tokens.seal(e.position) }));
  return { status: 200, body: { items, nextCursor: page.nextAfter === null ? null : tokens.seal(page.nextAfter) } };
}

/** GET <record>/historial of a group whose record lives in one stream: declared once, the same in every group. */
export function historyRoute(decl: {
  path: string;
  tag: string;
  permission: string;
  summary: string;
  /** Path parameters: strings, one of them naming the record. */
  params: JsonSchema;
  /** Path parameter naming the record. */
  idParam: string;
  /** Record type in the access audit, for the history of a record that names a patient (its events do too). */
  auditAs?: string;
  category: string;
  projection: string;
  /** The record model's fold: each entry then says what it changed, field by field. */
  fold?: HistoryFold;
  notFound: ResponseDecl;
  /** Throws the group's 404 when the record is not one of the company's (a nested record: not of its parent, in params). */
  exists(scope: TenantScope, id: string, params: Record<string, string>): Promise<unknown>;
}): RouteDecl {
  return route({
    method: 'get',
    path: decl.path,
    tag: decl.tag,
    auth: 'tenant',
    permission: decl.permission,
    summary: decl.summary,
    description:
      'Who (actor), when (occurredAt), why (reason) and what (type and data) of every event, oldest first, with its revision' +
      ' and the fields it changed (from, to).',
    params: decl.params as TObject<Record<string, TString>>,
    query: Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false }),
    responses: {
      200: { description: 'A page of the history, oldest first', schema: pageOf(RecordHistoryEntrySchema) },
      400: problem('The cursor is malformed or belongs to another query'),
      404: decl.notFound,
      503: problem('The read model did not reach minPosition within the bounded wait; retry', { 'Retry-After': 'Seconds to wait' }),
    },
    ...(decl.auditAs
      ? {
          auditAccess: (input: { params: Record<string, string> }) => ({
            recordType: decl.auditAs!,
            recordId: input.params[decl.idParam] ?? null,
          }),
        }
      : {}),
    handle: async (input, ctx) => {
      const scope = ctx as TenantRequestContext;
      await awaitMinPosition(ctx, input.query.minPosition, [decl.projection]);
      const id = input.params[decl.idParam]!;
      await decl.exists(scope, id, input.params);
      return recordHistoryAnswer(scope, decl.category, id, input.query, decl.fold);
    },
  });
}
