// One record read model per single-stream aggregate ("fetch latest", Marten FetchLatest): its collection, get, or404
// and the read-after-write `latest`, built once from the projection, the stream category and the document fold.
import { LIMITS } from '../limits.js';
import { notFoundProblem } from '../problems.js';
import type { Collection, ReadDoc } from '../stores/readStore.js';
import { streamName, type RecordedEvent } from '../stores/eventStore.js';
import type { TenantScope } from './tenantScope.js';

/** What a write tells a read: the stream's revision after it and the global position of its last event. */
export interface WriteOutcome {
  revision: number;
  position: bigint | null;
  /** The stream written, for a record kept in another's stream whose id does not name it (a plan in its patient's). */
  streamId?: string;
}

/** A record document as projected: its stream revision and the position it was projected at. */
export type RecordDoc = ReadDoc & { revision: number; _position: string | number | bigint };

export interface RecordModelSpec<D extends RecordDoc> {
  /** The projection that keeps the collection (what a read waits for). */
  projection: string;
  /** The projection's logical collection name. */
  collection: string;
  /** The aggregate's stream category, from its event contract. */
  category: string;
  /** The document folded from the record's own stream, event by event (the projection's own fold); `id` is the record's. */
  fold: (doc: D | null, event: RecordedEvent, id: string) => D | null;
  /** For a record kept in another's stream (a prescription version in its patient's): that stream's id (default: the record's). */
  streamOf?: (id: string) => string;
  /** Read models the record's view also reads, waited for after a write with the record's own. */
  alsoAwait?: readonly string[];
  /** What a missing record is called in its 404 ("Machine not found"). */
  notFound: string;
  /**
   * A record other streams also project into (a product's stock): what the record folded from its own stream takes
   * from the stored document (null when there is none yet). Unset: the folded record as it is.
   */
  fromStored?: (folded: D, stored: D | null) => D;
  /** Which documents of the collection are this model's records (a collection shared by kinds, e.g. bloodlines). */
  where?: (doc: D) => boolean;
}

export interface RecordModel<D extends RecordDoc> {
  readonly projection: string;
  readonly category: string;
  readonly collection: (scope: TenantScope) => Collection<D>;
  /** The company's record, or null (another company's record is exactly as absent). */
  readonly get: (scope: TenantScope, id: string) => Promise<D | null>;
  /** The company's record, or 404. */
  readonly or404: (scope: TenantScope, id: string) => Promise<D>;
  /** The record at least at a write's revision: waits (bounded) for the projection, else folds its own stream. */
  readonly latest: (scope: TenantScope, id: string, write: WriteOutcome) => Promise<D>;
  /** The record folded from its stream alone (null when it has no event): strong, never behind. */
  readonly folded: (scope: TenantScope, id: string, streamId?: string) => Promise<D | null>;
  /** 404 unless the company's stream of the record has an event: strong, reads one event. */
  readonly mustExist: (scope: TenantScope, id: string) => Promise<void>;
}

export function recordModel<D extends RecordDoc>(spec: RecordModelSpec<D>): RecordModel<D> {
  const collection = (scope: TenantScope): Collection<D> => scope.services.projections.collection<D>(spec.projection, spec.collection);
  const get = async (scope: TenantScope, id: string): Promise<D | null> => {
    const doc = await collection(scope).get(scope.auth.tenantId, id);
    return doc && (!spec.where || spec.where(doc)) ? doc : null;
  };
  const streamOf = spec.streamOf ?? ((id: string) => id);
  const folded = async (scope: TenantScope, id: string, streamId = streamOf(id)): Promise<D | null> => {
    let doc: D | null = null;
    for (const e of await scope.services.events.readStream(streamName(scope.auth.tenantId, spec.category, streamId))) {
      doc = spec.fold(doc, e, id);
    }
    return doc;
  };
  return {
    projection: spec.projection,
    category: spec.category,
    collection,
    get,
    folded,
    mustExist: async (scope, id) => {
      const stream = streamName(scope.auth.tenantId, spec.category, streamOf(id));
      if ((await scope.services.events.readStream(stream, { maxCount: 1 })).length === 0) throw notFoundProblem(spec.notFound);
    },
    or404: async (scope, id) => {
      const doc = await get(scope, id);
      if (!doc) throw notFoundProblem(spec.notFound);
      return doc;
    },
    latest: async (scope, id, write) => {
      if (write.position !== null) {
        await scope.services.projections.waitFor(write.position, {
          projections: [spec.projection, ...(spec.alsoAwait ?? [])],
          timeoutMs: LIMITS.readYourWrites.maxWaitMs,
        });
      }
      const doc = await get(scope, id);
      if (doc && doc.revision >= write.revision) return doc;
      const fromStream = await folded(scope, id, write.streamId);
      if (!fromStream) throw notFoundProblem(spec.notFound);
      return spec.fromStored ? spec.fromStored(fromStream, doc) : fromStream;
    },
  };
}
