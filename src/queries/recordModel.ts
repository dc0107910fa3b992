// One record read model per single-stream aggregate ("fetch latest", Marten FetchLatest): its collection, get, or404
// and the read-after-write `latest`, built once from the projection, the stream category and the document fold.
import { LIMITS } from '../limits.js';
import { notFoundProblem, ProblemError } from '../problems.js';
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
  /** Read models the record's view also reads, waited for with the record's own after a write and by a read with minPosition. */
  alsoAwait?: readonly string[];
  /** What a missing record is called in its 404 ("Machine not found"). */
  notFound: string;
  /**
   * A record other streams also project into (a product's stock): what the record folded from its own stream takes
   * from the stored document (null when there is none yet). Unset: the folded record as it is.
   */
  fromStored?: (folded: D, stored: D | null) => D;
  /** Categories of other streams of the same id that fold into the record too (a session's consequences), in log order. */
  alsoFolds?: readonly string[];
  /** What a record folded to an instant takes from other streams then (a product's stock); unset: the folded record. */
  atInstant?: (scope: TenantScope, folded: D, instant: string) => Promise<D>;
  /** Which documents of the collection are this model's records (a collection shared by kinds, e.g. bloodlines). */
  where?: (doc: D) => boolean;
}

/** A point of a record's past: an instant (ISO date-time) or a version (the record's revision, as its ETag says). */
export type RecordPoint = { asOf: string } | { version: number };

/** The record as it was at a point: the document folded to it and the event that made it so. */
export interface RecordAt<D> {
  doc: D;
  /** The last event folded into it. */
  event: RecordedEvent;
  /** The record's version then: the revision of the last event of its own stream folded into it. */
  version: number;
}

/** 404 with its own type: the record exists, but not yet at that instant (or version); names its first event's instant. */
export const notYetExisting = (what: string, firstAt: string): ProblemError =>
  new ProblemError(
    404,
    'not-yet-existing',
    'Not Yet Existing',
    `The ${what} did not exist yet: its first event is at ${firstAt}`,
    {},
    undefined,
    {
      firstEventAt: firstAt,
    },
  );

export interface RecordModel<D extends RecordDoc> {
  readonly projection: string;
  /** What a read of the record waits for after a write (minPosition): its projection and those its view also reads. */
  readonly awaits: readonly string[];
  /** The projection's logical collection name (what a prepared page's change stamp is read for). */
  readonly logical: string;
  /** The record's document fold (the projection's), event by event. */
  readonly fold: (doc: D | null, event: RecordedEvent, id: string) => D | null;
  /**
   * The record as it was at an instant or version, folded from its own stream alone (deleted and archived records too):
   * 404 when the company's stream has no event of it, 404 not-yet-existing when it only began later.
   */
  readonly at: (scope: TenantScope, id: string, point: RecordPoint, streamId?: string) => Promise<RecordAt<D>>;
  readonly category: string;
  /** The projection's logical name of the collection (what its change stamps are kept under). */
  readonly collectionName: string;
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
  const at = async (scope: TenantScope, id: string, point: RecordPoint, streamId = streamOf(id)): Promise<RecordAt<D>> => {
    const own = streamName(scope.auth.tenantId, spec.category, streamId);
    const streams = [own, ...(spec.alsoFolds ?? []).map((c) => streamName(scope.auth.tenantId, c, id))];
    const events = (await Promise.all(streams.map((st) => scope.services.events.readStream(st)))).flat();
    if (streams.length > 1) events.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
    const at = foldAt(spec, events, own, id, point);
    if (!spec.atInstant) return at;
    const instant = 'asOf' in point ? new Date(point.asOf).toISOString() : at.event.metadata.occurredAt;
    return { ...at, doc: await spec.atInstant(scope, at.doc, instant) };
  };
  /** A record the read model does not hold (yet), from its own stream: null when it has no event or is filtered out. */
  const justCreated = async (scope: TenantScope, id: string): Promise<D | null> => {
    const fromStream = await folded(scope, id);
    const doc = fromStream && spec.fromStored ? spec.fromStored(fromStream, null) : fromStream;
    return doc && (!spec.where || spec.where(doc)) ? doc : null;
  };
  const awaits = [spec.projection, ...(spec.alsoAwait ?? [])];
  return {
    projection: spec.projection,
    awaits,
    logical: spec.collection,
    category: spec.category,
    fold: spec.fold,
    at,
    collectionName: spec.collection,
    collection,
    get,
    folded,
    mustExist: async (scope, id) => {
      const stream = streamName(scope.auth.tenantId, spec.category, streamOf(id));
      if ((await scope.services.events.readStream(stream, { maxCount: 1 })).length === 0) throw notFoundProblem(spec.notFound);
    },
    or404: async (scope, id) => {
      // Not projected yet is not absent: a record read right after its creation (its Location) is folded from its stream.
      const doc = (await get(scope, id)) ?? (await justCreated(scope, id));
      if (!doc) throw notFoundProblem(spec.notFound);
      return doc;
    },
    latest: async (scope, id, write) => {
      if (write.position !== null) {
        await scope.services.projections.waitFor(write.position, {
          projections: awaits,
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

/**
 * A record folded from its events (log order) up to a point: `own` names its own stream, whose revisions are its versions.
 * 404 when no event makes the record, not-yet-existing when only later ones do, not-found for a version beyond the latest.
 */
export function foldAt<D extends RecordDoc>(
  spec: Pick<RecordModelSpec<D>, 'fold' | 'where' | 'notFound'>,
  events: readonly RecordedEvent[],
  own: string,
  id: string,
  point: RecordPoint,
): RecordAt<D> {
  const last = events.filter((e) => e.streamName === own).at(-1);
  if ('version' in point && last && point.version > last.revision) {
    throw notFoundProblem(`${spec.notFound}: no version ${point.version} (the latest is ${last.revision})`);
  }
  // A version ends after its own event (and whatever other stream folded before the next one of its own).
  const cut = 'version' in point ? events.find((e) => e.streamName === own && e.revision > point.version)?.position : undefined;
  const instant = 'asOf' in point ? Date.parse(point.asOf) : NaN;
  const inside = (e: RecordedEvent): boolean =>
    'asOf' in point ? Date.parse(e.metadata.occurredAt) <= instant : cut === undefined || e.position < cut;
  let doc: D | null = null;
  let made: RecordedEvent | null = null;
  let version = -1;
  let first: RecordedEvent | null = null;
  let removed: RecordedEvent | null = null;
  for (const e of events) {
    const within = inside(e);
    // The events up to the point, in log order; past it, only while the record has not begun (doc is still null).
    if (!within && first) break;
    const next = spec.fold(doc, e, id);
    if (next === doc) continue;
    if (next === null || (spec.where && !spec.where(next))) {
      // A record removed (a supply kit) is absent from then on, until it is set again.
      if (doc && within) [doc, removed] = [null, e];
      continue;
    }
    first ??= e;
    if (!within) break;
    [doc, made, removed] = [next, e, null];
    if (e.streamName === own) version = e.revision;
  }
  if (!first) throw notFoundProblem(spec.notFound);
  if (removed) throw notFoundProblem(`${spec.notFound}: removed at ${removed.metadata.occurredAt}`);
  if (!doc || !made) throw notYetExisting(spec.notFound.replace(/ not found$/, '').toLowerCase(), first.metadata.occurredAt);
  return { doc, event: made, version };
}
