// The runner's public shapes, owned here so that the runner and its parts (slots, rebuild, progress)
// import them from one place instead of from each other.
import type { Projection } from './projection.js';
import type { Collection, ReadDoc } from '../../stores/readStore.js';
import type { ParkedEntry } from './parkedScopes.js';

export interface RebuildProgress {
  projection: string;
  done: number;
  total: number;
  /** done / total, one decimal; 100 only once finished. */
  percent: number;
  ratePerSecond: number;
  /** Estimated seconds left, null until a rate is known. */
  etaSeconds: number | null;
  elapsedMs: number;
  /** When this rebuild started: tells two rebuilds of equal figures apart. */
  startedAt: string;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  /**
   * 'standby': another instance holds the projector lease (this one serves reads of its documents);
   * 'failed': a store or subscription error stopped it; it retries with backoff from its checkpoint.
   */
  state: 'stopped' | 'standby' | 'catching-up' | 'live' | 'rebuilding' | 'failed';
  /** Global position of the last event applied (decimal string; '0' when none). */
  checkpoint: string;
  /** Global position of the last event in the log (decimal string). */
  head: string;
  /** head - checkpoint, in positions (0 when caught up). */
  lag: number;
  /** The last failure, while it lasts. */
  error?: string;
  /** Since when the projection has been failing (ISO-8601), until it has recovered. */
  failedSince?: string;
  /** Retries so far and the next one, while failing. */
  retry?: { attempts: number; nextAttemptAt: string | null };
  /** Tenants (or platform aggregates) whose events stopped at a poison event; every other scope goes on. */
  parked: ParkedEntry[];
  rebuild?: RebuildProgress;
}

/** What a reader in another thread needs of a projection: where it serves reads and what it has applied. */
export interface SlotView {
  name: string;
  /** Physical collection names by logical name. */
  collections: Record<string, string>;
  /** Decimal string. */
  checkpoint: string;
  parked: ParkedEntry[];
  refilling: boolean;
}

/** Tells another thread what the runner does: every advance of a checkpoint and every write to a collection. */
export interface RunnerWatch {
  /** A checkpoint advanced, a scope was parked, collections were switched (called often: coalesce). */
  changed(): void;
  /** A write to the collection ended: the tenant's documents (null: every tenant's) may have changed. */
  touched(collection: string, tenantId: string | null): void;
}

export interface WaitOptions {
  /** Bounded: false when it runs out (default 5000 ms). */
  timeoutMs?: number;
  /** The projections the caller reads (default: all). A failed one is waited for, since it retries. */
  projections?: readonly string[];
  /** The tenant of the write: false at once when a waited projection parked this tenant at or before the position. */
  tenant?: string;
}

export interface ProjectionRunner {
  /** Register before start(). */
  register(projection: Projection): void;
  /** Ensure collections and indexes, resume every projection from its checkpoint, catch up, then go live. Resolves once caught up with the head as it was at the call. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The collection that currently serves reads for a projection's logical collection. */
  collection<T extends ReadDoc = ReadDoc>(projection: string, logical: string): Collection<T>;
  /**
   * Wait (bounded) until the projections (all by default) have applied `position`: true only once every one of them
   * has (an event of a parked scope counts as applied: it was skipped, see `tenant`). A failed projection is waited
   * for, as it retries; false when the time runs out, when the runner stops, or when `tenant` is parked.
   */
  waitFor(position: bigint, options?: WaitOptions): Promise<boolean>;
  /**
   * A stamp of the tenant's documents in a projection's collection: it changes with every write this instance makes to
   * them (and with a rebuild's switch), and it is read after waitFor() so it covers what the wait covered. null when
   * another instance writes the collection (standby) or the projection is not serving: nothing may be kept then.
   */
  changeStamp(projection: string, logical: string, tenantId: string): number | null;
  /** The global position a projection has applied (0 before its first event): what a widget answer is "as of". */
  checkpointOf(name: string): bigint;
  status(): Promise<ProjectionStatus[]>;
  /**
   * The read store was replaced by an empty one (its file was damaged): every projection catches up again from the
   * start of the log, `first` before the others; reads of a projection answer 503 until it has.
   */
  refill(first?: string[]): Promise<void>;
  /** Replay the whole log into a fresh collection set, then switch reads to it. */
  rebuild(name: string, onProgress?: (progress: RebuildProgress) => void): Promise<void>;
}
