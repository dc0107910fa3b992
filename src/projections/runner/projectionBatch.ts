// The ProjectionTx of one batch. Documents read during the batch are cached (read-through `get`), changes
// are kept in memory and written back with one unordered bulkWrite per collection at flush, each write conditional
// on the stored `_position`. An in-process store offering shared access (sharedDocuments.ts) is written directly
// instead: no cache, no copies. An event is applied whole or not at all: a handler that throws has its changes undone.
// A fresh build (empty collections only this batch writes) keeps the last flush's documents and answers a read of a key
// it never wrote without asking the store.
import type { RecordedEvent } from '../../stores/eventStore.js';
import type { BulkOp, Collection } from '../../stores/readStore.js';
import { sharedAccessOf, type SharedAccess } from '../../stores/sharedDocuments.js';
import type { ProjectedDoc, Projection, ProjectionTx } from './projection.js';
import type { ParkedScopes } from './parkedScopes.js';
import { ReadModelUnavailableError } from './projectionFailures.js';
import { WrittenKeys } from './writtenKeys.js';
import { LIMITS } from '../../limits.js';

interface CachedDoc {
  tenantId: string;
  id: string;
  doc: ProjectedDoc | null; // null: absent or deleted
  dirty: boolean;
  /** Position of the event that deleted it (the delete is conditional on it). */
  deletedAt?: number;
}

interface Target {
  collection: Collection<ProjectedDoc>;
  shared: SharedAccess<ProjectedDoc> | null;
  cache: Map<string, CachedDoc>;
  /** Fresh build: the documents of the flush before (as stored), and every key written so far. */
  previous: Map<string, CachedDoc> | null;
  written: WrittenKeys | null;
}

export type ProjectionCollections = ReadonlyMap<string, Collection<ProjectedDoc>>;

export class ProjectionBatch implements ProjectionTx {
  private readonly targets = new Map<string, Target>();
  /** Events handled since the last flush (the batch size). */
  handled = 0;
  /** Events seen (handled or skipped) since the checkpoint was last persisted. */
  unpersisted = 0;
  /** Documents written directly (shared access) since the last flush. */
  private directWrites = 0;
  /** Changes kept in the cache (not yet in the read store) since the last flush. */
  private cachedWrites = 0;
  /**
   * What the changes of the event being handled replaced, flat (target, tenantId, id, before) to spare an object per
   * change; `before` is the stored document (shared access) or the cache entry, absent when there was none.
   */
  private readonly undo: unknown[] = [];
  private journaling = false;
  /** occurredAt of the event being handled: stamped on every document it writes (`_changedAt`). */
  private changedAt = '';
  private fresh = false;
  /** Fresh build: documents held per collection from the flush before, at most (the latest written). */
  private heldDocs = 0;

  constructor(
    readonly projection: Projection,
    readonly collections: ProjectionCollections,
    /** Position of the last event applied or skipped; the checkpoint once flushed. */
    public position: bigint,
    /** Scopes stopped at a poison event: their later events are skipped. */
    readonly parked: ParkedScopes,
  ) {}

  /**
   * Declares the collections empty at the start and written by this batch alone until `endFreshBuild` (a rebuild into
   * new collections, a first start): documents of the last flush stay at hand, and a key never written reads as absent.
   */
  freshBuild(heldDocs: number = LIMITS.projections.freshBuildHeldDocs): void {
    if (this.position !== 0n || this.targets.size > 0) throw new Error('a fresh build starts before the first event');
    this.fresh = true;
    this.heldDocs = heldDocs;
  }

  /** Back to reading through the store (live handling: another instance may write these collections later). */
  endFreshBuild(): void {
    this.fresh = false;
    for (const target of this.targets.values()) {
      target.previous = null;
      target.written = null;
    }
  }

  /**
   * Feeds one event (synchronously when the handler is synchronous or the event is skipped or a redelivery). When the
   * handler throws, its changes are undone and the error is passed on; the position stays past the event.
   */
  apply(event: RecordedEvent, types: ReadonlySet<string>): Promise<void> | void {
    if (this.position !== 0n && event.position <= this.position) return;
    this.position = event.position;
    this.unpersisted++;
    if (!types.has(event.type)) return;
    if (this.parked.size > 0 && this.parked.covers(event)) return;
    this.handled++;
    this.changedAt = event.metadata.occurredAt;
    // Handling is strictly sequential: one journal serves every event in turn.
    this.undo.length = 0;
    this.journaling = true;
    let pending: Promise<void> | void;
    try {
      pending = this.projection.handle(event, this);
    } catch (error) {
      this.rollBack();
      throw error;
    }
    if (!pending) {
      this.journaling = false;
      return;
    }
    return pending.then(
      () => void (this.journaling = false),
      (error: unknown) => {
        this.rollBack();
        throw error;
      },
    );
  }

  private rollBack(): void {
    this.journaling = false;
    const undo = this.undo;
    for (let i = undo.length - 4; i >= 0; i -= 4) {
      const target = undo[i] as Target;
      const tenantId = undo[i + 1] as string;
      const id = undo[i + 2] as string;
      const before = undo[i + 3];
      if (target.shared) {
        if (before) target.shared.put(before as ProjectedDoc);
        else target.shared.remove(tenantId, id);
      } else if (before) target.cache.set(`${tenantId}\u0000${id}`, before as CachedDoc);
      else target.cache.delete(`${tenantId}\u0000${id}`);
    }
    undo.length = 0;
  }

  private remember(target: Target, tenantId: string, id: string): void {
    if (!this.journaling) return;
    const before = target.shared ? target.shared.get(tenantId, id) : target.cache.get(`${tenantId}\u0000${id}`);
    this.undo.push(target, tenantId, id, before);
  }

  async get<T extends ProjectedDoc>(collection: string, tenantId: string, id: string): Promise<T | null> {
    const target = this.target(collection);
    if (target.shared) return target.shared.get(tenantId, id) as T | null;
    const key = `${tenantId}\u0000${id}`;
    const cached = target.cache.get(key) ?? this.held(target, key, tenantId, id);
    if (cached) return cached.doc as T | null;
    let doc: ProjectedDoc | null;
    try {
      doc = await target.collection.get(tenantId, id);
    } catch (error) {
      throw new ReadModelUnavailableError(error); // the store failed, not the handler: retried, never parked
    }
    target.cache.set(key, { tenantId, id, doc, dirty: false });
    return doc as T | null;
  }

  /** Synchronous read when the answer is at hand (shared access, or already cached in this batch). */
  peek<T extends ProjectedDoc>(collection: string, tenantId: string, id: string): T | null | undefined {
    const target = this.target(collection);
    if (target.shared) return target.shared.get(tenantId, id) as T | null;
    const key = `${tenantId}\u0000${id}`;
    return (target.cache.get(key) ?? this.held(target, key, tenantId, id))?.doc as T | null | undefined;
  }

  /** Fresh build: a document of the flush before (taken into this batch), or null for a key never written. */
  private held(target: Target, key: string, tenantId: string, id: string): CachedDoc | undefined {
    if (!target.written) return undefined;
    let entry = target.previous!.get(key);
    if (!entry && !target.written.mayHave(tenantId, id)) entry = { tenantId, id, doc: null, dirty: false };
    if (entry) target.cache.set(key, entry);
    return entry;
  }

  put<T extends ProjectedDoc>(collection: string, doc: T): void {
    const target = this.target(collection);
    // One place for every projection: the document was built for this write (folds never hand back a stored one changed).
    if (doc._changedAt !== this.changedAt) doc._changedAt = this.changedAt;
    this.remember(target, doc.tenantId, doc.id);
    if (target.shared) {
      target.shared.put(doc);
      this.directWrites++;
    } else {
      target.cache.set(`${doc.tenantId}\u0000${doc.id}`, { tenantId: doc.tenantId, id: doc.id, doc, dirty: true });
      this.cachedWrites++;
    }
  }

  delete(collection: string, tenantId: string, id: string): void {
    const target = this.target(collection);
    this.remember(target, tenantId, id);
    if (target.shared) {
      target.shared.remove(tenantId, id);
      this.directWrites++;
    } else {
      target.cache.set(`${tenantId}\u0000${id}`, { tenantId, id, doc: null, dirty: true, deletedAt: Number(this.position) });
      this.cachedWrites++;
    }
  }

  /** True when every change applied so far is already in the read store (written directly): readable now. */
  get allVisible(): boolean {
    return this.cachedWrites === 0;
  }

  /** Writes every changed document (one unordered bulkWrite per collection, in declared order), empties the cache; returns how many. */
  async writeBack(): Promise<number> {
    const { writes, written, stored } = this.takeWrites();
    for (const { collection, ops } of writes) await collection.bulkWrite(ops);
    stored();
    return written;
  }

  /**
   * The changed documents as one unordered bulk write per collection, in declared order (the caller writes them), and
   * how many changes the batch made (those written directly included); empties the cache.
   */
  takeWrites(): { writes: { collection: Collection<ProjectedDoc>; ops: BulkOp<ProjectedDoc>[] }[]; written: number; stored: () => void } {
    const writes: { collection: Collection<ProjectedDoc>; ops: BulkOp<ProjectedDoc>[] }[] = [];
    /** A fresh build's documents held for the next batch once the caller's write of them succeeded. */
    const promotions: (() => void)[] = [];
    let written = this.directWrites;
    for (const name of this.collections.keys()) {
      const target = this.targets.get(name);
      if (!target) continue;
      const ops: BulkOp<ProjectedDoc>[] = [];
      for (const entry of target.cache.values()) {
        if (!entry.dirty) continue;
        if (target.written) {
          target.written.add(entry.tenantId, entry.id);
          entry.dirty = false; // held for the next batch as stored (the entry is not reused otherwise)
        }
        // Conditional on `_position`: a slower writer (a projector that lost its lease) never replaces a newer document.
        ops.push(
          entry.doc
            ? { kind: 'replace', doc: entry.doc, ifNewer: true }
            : {
                kind: 'delete',
                tenantId: entry.tenantId,
                id: entry.id,
                ...(entry.deletedAt !== undefined ? { ifOlderThan: entry.deletedAt } : {}),
              },
        );
      }
      const stored = target.cache;
      target.cache = new Map();
      if (target.written) {
        // Held as stored only once the write succeeded (a failed one leaves nothing held: the store is asked again).
        target.previous = new Map();
        const fresh = target;
        promotions.push(() => (fresh.previous = latest(stored, this.heldDocs)));
      }
      if (ops.length > 0) writes.push({ collection: target.collection, ops });
      written += ops.length;
    }
    this.directWrites = 0;
    this.cachedWrites = 0;
    this.handled = 0;
    return { writes, written, stored: () => promotions.forEach((promote) => promote()) };
  }

  private target(name: string): Target {
    let target = this.targets.get(name);
    if (!target) {
      const collection = this.collections.get(name);
      if (!collection) throw new Error(`projection ${this.projection.name} has no collection '${name}' (declare it in collections)`);
      const shared = sharedAccessOf(collection);
      const fresh = this.fresh && !shared;
      target = { collection, shared, cache: new Map(), previous: fresh ? new Map() : null, written: fresh ? new WrittenKeys() : null };
      this.targets.set(name, target);
    }
    return target;
  }
}

/** The last `count` entries of a map (in insertion order: the documents a batch reached last). */
function latest<V>(entries: Map<string, V>, count: number): Map<string, V> {
  if (entries.size <= count) return entries;
  const kept = new Map<string, V>();
  let skip = entries.size - count;
  for (const [key, value] of entries) if (skip-- <= 0) kept.set(key, value);
  return kept;
}
