// The history of one record (the policy, a location): its stream's events in order, paged by revision, with who
// (actor), when (occurredAt) and why (reason).
import { InvalidCursorError } from '../../stores/readCursor.js';
import { streamName, type RecordedEvent } from '../../stores/eventStore.js';
import type { TenantScope } from '../tenantScope.js';
import { occurredSince } from '../changedSince.js';

export interface StreamHistoryPage {
  events: RecordedEvent[];
  nextCursor: string | null;
}

const CURSOR_PREFIX = 'rev:';
const encodeCursor = (revision: number): string => Buffer.from(`${CURSOR_PREFIX}${revision}`).toString('base64url');

function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const revision = Number(text.slice(CURSOR_PREFIX.length));
  if (!text.startsWith(CURSOR_PREFIX) || !Number.isSafeInteger(revision) || revision < 0) throw new InvalidCursorError();
  return revision;
}

/** One page of a stream, oldest first. */
export async function streamHistory(
  scope: TenantScope,
  category: string,
  id: string,
  limit: number,
  cursor?: string,
  fromRevision = 0,
  updatedSince?: string,
): Promise<StreamHistoryPage> {
  const stream = streamName(scope.auth.tenantId, category, id);
  // A stream's events are in time order: what occurred at or after updatedSince is the rest of it from the first such
  // event (a page's cursor already points past it).
  const since = cursor === undefined && updatedSince !== undefined ? occurredSince(updatedSince) : null;
  const first = since ? (await scope.services.events.readStream(stream)).find((e) => since(e.metadata.occurredAt)) : undefined;
  if (since && !first) return { events: [], nextCursor: null };
  const from = cursor === undefined ? Math.max(fromRevision, first?.revision ?? 0) : decodeCursor(cursor);
  // One more than asked tells whether a next page exists.
  const events = await scope.services.events.readStream(stream, { fromRevision: from, maxCount: limit + 1 });
  const page = events.slice(0, limit);
  return { events: page, nextCursor: events.length > limit ? encodeCursor(page[page.length - 1]!.revision + 1) : null };
}

/** Who, when, why of an event, as every history entry shows it. */
export const historyStamp = (e: RecordedEvent) => ({
  revision: e.revision,
  type: e.type,
  occurredAt: e.metadata.occurredAt,
  actor: e.metadata.actor,
  reason: e.metadata.reason ?? null,
  correlationId: e.metadata.correlationId,
});
