// The history of one record kept in one stream: who, when, why and what of each of its events, page by page.
import type { TenantScope } from './tenantScope.js';
import { streamName, type RecordedEvent } from '../stores/eventStore.js';
import { changesBetween, type FieldChange } from './recordChanges.js';
import { occurredSince } from './changedSince.js';

/** The record's document fold (its record model's), to say what each event changed. */
export type HistoryFold = (doc: never, event: RecordedEvent, id: string) => unknown;

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
  /** What the event changed in the record, field by field (when the record's fold is known). */
  changes?: FieldChange[];
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
  fold?: HistoryFold,
  updatedSince?: string,
): Promise<RecordHistoryPage> {
  const events = await scope.services.events.readStream(streamName(scope.auth.tenantId, category, id));
  const changes = fold ? changesOf(events, id, fold) : null;
  const since = occurredSince(updatedSince);
  const all = events
    .filter((e) => (after === null || e.position > after) && since(e.metadata.occurredAt))
    .map((e) => ({
      position: e.position,
      revision: e.revision,
      type: e.type,
      occurredAt: e.metadata.occurredAt,
      actor: e.metadata.actor,
      reason: e.metadata.reason ?? null,
      correlationId: e.metadata.correlationId,
      data: e.data,
      ...(changes ? { changes: changes.get(e)! } : {}),
    }));
  const items = all.slice(0, limit);
  return { items, nextAfter: all.length > limit ? items[items.length - 1]!.position : null };
}

/** Each event's field changes: the record folded before and after it (a copy before, should a fold change in place). */
export function changesOf(events: RecordedEvent[], id: string, fold: HistoryFold): Map<RecordedEvent, FieldChange[]> {
  const out = new Map<RecordedEvent, FieldChange[]>();
  let doc: unknown = null;
  for (const e of events) {
    const before = structuredClone(doc);
    doc = fold(doc as never, e, id); // null: the record removed (a supply kit), every field to null
    out.set(e, changesBetween(before, doc));
  }
  return out;
}
