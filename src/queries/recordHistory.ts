// The history of one record kept in one stream: who, when, why and what of each of its events, page by page.
import type { TenantScope } from './tenantScope.js';
import { streamName } from '../stores/eventStore.js';

export interface RecordHistoryEntry {
  /** Global log position; the HTTP layer seals it (and the page's resume point) before it leaves the service. */
  position: bigint;
  revision: number;
  type: string;
  occurredAt: string;
  actor: string;
  reason: string | null;
  correlationId: string;
  data: Record<string, unknown>;
}

export interface RecordHistoryPage {
  items: RecordHistoryEntry[];
  /** Position to resume after; null on the last page. */
  nextAfter: bigint | null;
}

export async function recordHistory(
  scope: TenantScope,
  category: string,
  id: string,
  limit: number,
  after: bigint | null,
): Promise<RecordHistoryPage> {
  const events = await scope.services.events.readStream(streamName(scope.auth.tenantId, category, id));
  const all = events
    .filter((e) => after === null || e.position > after)
    .map((e) => ({
      position: e.position,
      revision: e.revision,
      type: e.type,
      occurredAt: e.metadata.occurredAt,
      actor: e.metadata.actor,
      reason: e.metadata.reason ?? null,
      correlationId: e.metadata.correlationId,
      data: e.data,
    }));
  const items = all.slice(0, limit);
  return { items, nextAfter: all.length > limit ? items[items.length - 1]!.position : null };
}
