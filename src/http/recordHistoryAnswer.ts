// GET .../{id}/historial of a record kept in one stream: the page with its positions sealed like X-Event-Position.
import { recordHistory } from '../queries/recordHistory.js';
import type { TenantScope } from '../queries/tenantScope.js';
import { InvalidCursorError } from '../stores/readCursor.js';
import { ConsistencyTokenSchema } from './commonSchemas.js';
import { consistencyTokens } from './consistencyToken.js';
import type { HttpResult, JsonSchema, RequestContext } from './routeTypes.js';

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
  },
};

export async function recordHistoryAnswer(
  ctx: RequestContext & TenantScope,
  category: string,
  id: string,
  query: { limit: number; cursor?: string },
): Promise<HttpResult> {
  // Positions leave sealed: usable as minPosition, silent about other companies' writes.
  const tokens = await consistencyTokens(ctx.services);
  const after = query.cursor === undefined ? null : tokens.open(query.cursor);
  if (after === null && query.cursor !== undefined) throw new InvalidCursorError();
  const page = await recordHistory(ctx, category, id, query.limit, after);
  const items = page.items.map((e) => ({ ...e, position: tokens.seal(e.position) }));
  return { status: 200, body: { items, nextCursor: page.nextAfter === null ? null : tokens.seal(page.nextAfter) } };
}
