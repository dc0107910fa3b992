import type { RecordedEvent } from '../../stores/eventStore.js';
import type { IndexSpec, ReadDoc } from '../../stores/readStore.js';

/**
 * A projection turns events into read-model documents. The runner feeds it events strictly in global
 * order, in batches, through a `ProjectionTx` that caches documents and writes them back in bulk with
 * the checkpoint after each batch. Handlers must be idempotent: every document records the global
 * position it last applied (`_position`), and `applyTo` skips an event already applied, so replays and
 * at-least-once delivery change nothing.
 */
export interface Projection {
  /** Stable name, e.g. 'patients'. */
  name: string;
  /** Bump when the document shape or logic changes: the runner then rebuilds into `<collection>_v<version>`. */
  version: number;
  /**
   * Logical collection names (without version suffix) with their indexes (each should lead with tenantId). A batch is
   * written back in this order: declare a collection before the one whose documents guard it, so a failure in between
   * leaves the guard behind and the replay writes both again.
   */
  collections: Record<string, IndexSpec[]>;
  /** Event types this projection reads; others are skipped without calling `handle`. 'all': every event (the audit trail). */
  eventTypes: readonly string[] | 'all';
  /** Collections no list asks by `updatedSince` alone (read by key, or always with another filter): no stamp index. */
  unstamped?: readonly string[];
  handle(event: RecordedEvent, tx: ProjectionTx): Promise<void> | void;
}

/** A set that holds every event type: what a projection reading the whole log filters with. */
class EveryType extends Set<string> {
  override has(): boolean {
    return true;
  }
}

/** The event types a projection reads, as the runner filters them. */
export const eventTypeSet = (projection: Pick<Projection, 'eventTypes'>): ReadonlySet<string> =>
  projection.eventTypes === 'all' ? new EveryType() : new Set(projection.eventTypes);

export interface ProjectedDoc extends ReadDoc {
  /** Global position (as a JS number: positions stay far below 2^53) of the last event applied. */
  _position: number;
  /** When the last event applied occurred (its metadata.occurredAt): stamped by the runner on every write, never by a fold. */
  _changedAt?: string;
}

/** The field every projected document carries its last change instant in (what lists filter `updatedSince` on). */
export const CHANGED_AT = '_changedAt';

/** The runner gives every collection this index: a list asked what changed since an instant seeks instead of scanning. */
export const CHANGED_AT_INDEX: IndexSpec = { keys: { tenantId: 1, [CHANGED_AT]: 1 }, name: 'by_changed_at' };

export interface ProjectionTx {
  /** Read-only: build a new document and `put` it, never modify this one (the embedded store lends its own). */
  get<T extends ProjectedDoc>(collection: string, tenantId: string, id: string): Promise<T | null>;
  /** Optional synchronous `get` (documents already in this process): undefined when only `get` can tell. Read-only too. */
  peek?<T extends ProjectedDoc>(collection: string, tenantId: string, id: string): T | null | undefined;
  put<T extends ProjectedDoc>(collection: string, doc: T): void;
  delete(collection: string, tenantId: string, id: string): void;
}

/**
 * The common case: fold an event into one document. Skips events the document already has, and stamps
 * `_position`. `fold` receives null when the document does not exist yet and returns the new document
 * (or null to delete it); it must not modify the document it receives.
 */
export async function applyTo<T extends ProjectedDoc>(
  tx: ProjectionTx,
  collection: string,
  tenantId: string,
  id: string,
  event: RecordedEvent,
  fold: (doc: T | null) => Omit<T, '_position'> | null,
): Promise<void> {
  const position = Number(event.position);
  await applyFold<T>(tx, collection, tenantId, id, event, (doc) => {
    const next = fold(doc);
    return next === null ? null : ({ ...next, _position: position } as T);
  });
}

/**
 * `applyTo` for folds that build the whole document themselves, `_position` included: no copy of every
 * document per event, and no promise when the transaction can `peek` (synchronous when it returns undefined).
 * A fold returning the document it was given means "no change": nothing is written. `ownStream`: the document's id is
 * its stream's and only that stream's events write it, so at the stream's first event (revision 0) it is not read: it
 * cannot be stored yet. A replay of that event over a newer stored document (from an older checkpoint) writes nothing
 * over it (write-backs are conditional on `_position`), and folds the stream's later events again, all replayed too.
 */
export function applyFold<T extends ProjectedDoc>(
  tx: ProjectionTx,
  collection: string,
  tenantId: string,
  id: string,
  event: RecordedEvent,
  fold: (doc: T | null, event: RecordedEvent) => T | null,
  options?: { ownStream?: boolean },
): Promise<void> | void {
  const current = tx.peek?.<T>(collection, tenantId, id);
  if (current !== undefined) return foldInto(tx, collection, tenantId, id, event, current, fold);
  if (event.revision === 0 && options?.ownStream) return foldInto(tx, collection, tenantId, id, event, null, fold);
  return tx.get<T>(collection, tenantId, id).then((doc) => foldInto(tx, collection, tenantId, id, event, doc, fold));
}

function foldInto<T extends ProjectedDoc>(
  tx: ProjectionTx,
  collection: string,
  tenantId: string,
  id: string,
  event: RecordedEvent,
  current: T | null,
  fold: (doc: T | null, event: RecordedEvent) => T | null,
): void {
  if (current && current._position >= Number(event.position)) return;
  const next = fold(current, event);
  if (next === current) return;
  if (next === null) tx.delete(collection, tenantId, id);
  else tx.put(collection, next);
}

const SHARED_STRINGS_MAX = 4096;
const sharedStrings = new Map<string, string>();
const recent: [string, string] = ['', ''];

/**
 * One copy of a string that repeats across documents (tenant ids, actor ids): JSON.parse gives every event
 * its own copy, and a read model keeps them. Bounded: past the limit the pool starts again (only sharing is lost).
 */
export function sharedString(value: string): string {
  // Consecutive events mostly repeat the last values: a comparison is cheaper than hashing a fresh string.
  if (value === recent[0]) return recent[0];
  if (value === recent[1]) return recent[1];
  let known = sharedStrings.get(value);
  if (known === undefined) {
    if (sharedStrings.size >= SHARED_STRINGS_MAX) sharedStrings.clear();
    sharedStrings.set(value, value);
    known = value;
  }
  recent[1] = recent[0];
  recent[0] = known;
  return known;
}
