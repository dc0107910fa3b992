import type { RecordedEvent } from '../stores/eventStore.js';
import type { IndexSpec, ReadDoc } from '../stores/readStore.js';

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
  /** Logical collection names (without version suffix) with their indexes (each should lead with tenantId). */
  collections: Record<string, IndexSpec[]>;
  /** Event types this projection reads; others are skipped without calling `handle`. */
  eventTypes: readonly string[];
  handle(event: RecordedEvent, tx: ProjectionTx): Promise<void> | void;
}

export interface ProjectedDoc extends ReadDoc {
  /** Global position (as a JS number: positions stay far below 2^53) of the last event applied. */
  _position: number;
}

export interface ProjectionTx {
  /** Read-only: build a new document and `put` it, never modify this one (the embedded store lends its own). */
  get<T extends ProjectedDoc>(collection: string, tenantId: string, id: string): Promise<T | null>;
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
  const current = await tx.get<T>(collection, tenantId, id);
  const position = Number(event.position);
  if (current && current._position >= position) return;
  const next = fold(current);
  if (next === null) tx.delete(collection, tenantId, id);
  else tx.put(collection, { ...next, _position: position } as T);
}
