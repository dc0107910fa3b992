// List pages prepared once per change of their collection instead of once per request: the answer a caller makes of
// a page (e.g. its JSON text) is kept per tenant, collection and normalized query, and served while the collection's
// change stamp is the one it was prepared under. The stamp is read after the request's read-your-writes wait, and a
// write draws a new one only once it is readable, so a kept answer is never older than what the request waited for.
import { LIMITS } from '../limits.js';
import type { ProjectionRunner } from '../projections/runner/runnerTypes.js';
import type { TenantScope } from './tenantScope.js';

/** The change stamp(s) an answer was prepared under: equal means nothing it was made of was written since. */
type Stamp = number | string;

interface Entry<A> {
  stamp: Stamp;
  /** Shared by concurrent requests that miss together: one query and one serialization per change. */
  answer: Promise<A>;
}

/** A least-recently-used map of prepared answers, each valid under one stamp. */
export class PreparedCache<A> {
  private readonly entries = new Map<string, Entry<A>>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The answer kept under `stamp`, or a new one from `prepare` (kept in its place unless it fails). */
  answer(key: string, stamp: Stamp, prepare: () => Promise<A>): Promise<A> {
    const kept = this.entries.get(key);
    if (kept && kept.stamp === stamp) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.answer;
    }
    const answer = prepare();
    // Stamps are compared for equality only (a rebuilt collection's may be lower): the latest preparation is kept.
    const entry: Entry<A> = { stamp, answer };
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return answer;
  }
}

// One cache per service instance (its runner) and kind, so two services in one process never share pages, and records
// read one by one (a session with its readings) never push the list pages out.
const caches = {
  pages: new WeakMap<ProjectionRunner, PreparedCache<unknown>>(),
  records: new WeakMap<ProjectionRunner, PreparedCache<unknown>>(),
};

export interface PreparedPageKey {
  projection: string;
  collection: string;
  /** The normalized query and cursor: equal for requests that must get the same page. */
  query: string;
  /** What of the page the caller may see, when that varies by permission ('' when it does not). */
  variant?: string;
  /** Other collections the answer is made of (a board names the patients of its sessions): a write to any prepares it afresh. */
  alsoFrom?: { projection: string; collection: string }[];
}

function prepared<A>(
  kind: keyof typeof caches,
  maxEntries: number,
  scope: TenantScope,
  key: PreparedPageKey,
  prepare: () => Promise<A>,
): Promise<A> {
  const runner = scope.services.projections;
  const tenantId = scope.auth.tenantId;
  let stamp: Stamp | null = runner.changeStamp(key.projection, key.collection, tenantId);
  for (const other of key.alsoFrom ?? []) {
    const part: number | null = stamp === null ? null : runner.changeStamp(other.projection, other.collection, tenantId);
    stamp = part === null ? null : `${stamp}.${part}`;
  }
  if (stamp === null) return prepare();
  let cache = caches[kind].get(runner);
  if (!cache) caches[kind].set(runner, (cache = new PreparedCache(maxEntries)));
  const cacheKey = JSON.stringify([tenantId, key.projection, key.collection, key.variant ?? '', key.query]);
  return (cache as PreparedCache<A>).answer(cacheKey, stamp, prepare);
}

/** The caller's answer for a page of one tenant's collection: kept while the collection is unchanged, prepared afresh otherwise. */
export function preparedPage<A>(scope: TenantScope, key: PreparedPageKey, prepare: () => Promise<A>): Promise<A> {
  return prepared('pages', LIMITS.preparedPages.maxEntries, scope, key, prepare);
}

/** The same for one record's answer (`query` names the record), in a cache of its own. */
export function preparedRecord<A>(scope: TenantScope, key: PreparedPageKey, prepare: () => Promise<A>): Promise<A> {
  return prepared('records', LIMITS.preparedPages.maxRecords, scope, key, prepare);
}
