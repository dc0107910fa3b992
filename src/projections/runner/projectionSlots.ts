// Live handling of one projection ("slot"): its current collections and checkpoint, the live subscription
// with batched, serialised handling, flushes that write documents then the checkpoint, poison events (parked
// scopes) and transient failures (the slot stops; slotRecovery.ts retries it).
import { CHANGED_AT_INDEX, eventTypeSet, type ProjectedDoc, type Projection } from './projection.js';
import type { Collection, ReadStore } from '../../stores/readStore.js';
import type { EventStore, RecordedEvent, Subscription } from '../../stores/eventStore.js';
import type { Logger } from '../../logger.js';
import type { ProjectionStatus, RebuildProgress } from './runnerTypes.js';
import { ProjectionBatch } from './projectionBatch.js';
import type { ReplayLane } from './replayLog.js';
import type { PositionWaiters } from './positionWaiters.js';
import type { CheckpointDoc } from './checkpoints.js';
import { ParkedScopes } from './parkedScopes.js';
import type { BulkOp } from '../../stores/readStore.js';
import { CollectionStamps, StampClock, stampedCollection } from './changeStamps.js';
import { flushSlot, flushTogether } from './slotFlush.js';
import { LIMITS } from '../../limits.js';

const P = LIMITS.projections;
import { errorText, isPoison, type RetryPolicy, type SlotFailure } from './projectionFailures.js';

export { errorText };

export interface Slot {
  projection: Projection;
  types: ReadonlySet<string>;
  state: ProjectionStatus['state'];
  error?: string;
  /** Set while failing (and kept a little after a recovery, see SlotFailure.recoveredAt). */
  failure?: SlotFailure;
  retryTimer: NodeJS.Timeout | null;
  /** Versioned collections serving reads, by logical name. */
  collections: Map<string, Collection<ProjectedDoc>>;
  suffix: string;
  /** Last position whose effects are visible in the read store. */
  checkpoint: bigint;
  /** Last position written to the checkpoint document. */
  persisted: bigint;
  /** Identity of the event store `checkpoint` is a position of. */
  storeId: string;
  parked: ParkedScopes;
  /** Live batch, bound to `collections`. */
  batch: ProjectionBatch;
  subscription: Subscription | null;
  /** Identifies the current live subscription: events of a stopped one are ignored. */
  liveToken: object | null;
  /** Serialises live handling, idle flushes and recoveries. */
  queue: Promise<void>;
  /** Work in `queue` not yet done: an idle slot (0) joins the shared idle flush at once. */
  pending: number;
  /** Persists a checkpoint that moved over skipped events only, so a standby instance's waits see it too. */
  lagging: boolean;
  rebuilding: boolean;
  rebuild?: RebuildProgress;
  /** Its read store was replaced by an empty one (a damaged file): reads answer 503 until it is live again. */
  refilling?: boolean;
}

export function newSlot(projection: Projection, suffix: string): Slot {
  const parked = new ParkedScopes();
  return {
    projection,
    types: eventTypeSet(projection),
    state: 'stopped',
    retryTimer: null,
    collections: new Map(),
    suffix,
    checkpoint: 0n,
    persisted: -1n,
    storeId: '',
    parked,
    batch: new ProjectionBatch(projection, new Map(), 0n, parked),
    subscription: null,
    liveToken: null,
    queue: Promise.resolve(),
    pending: 0,
    lagging: false,
    rebuilding: false,
  };
}

export const describeFailure = (error: unknown, event: RecordedEvent | null): string =>
  event ? `${errorText(error)} (event ${event.type} at position ${event.position})` : errorText(error);
export const namesOf = (collections: Map<string, Collection<ProjectedDoc>>): string[] => [...collections.values()].map((c) => c.name);

/** True while the slot is failing, or recovering from a failure. */
export const isFailing = (slot: Slot): boolean => slot.failure !== undefined && slot.failure.recoveredAt === null;

export interface SlotDeps {
  events: EventStore;
  reads: ReadStore;
  logger: Logger;
  batchSize: number;
  replayBatchSize: number;
  /** Events per write-back of a rebuild (one projection's fresh collections). */
  rebuildBatchSize: number;
  waiters: PositionWaiters;
  now: () => Date;
  retry: RetryPolicy;
  /** Told of every write to a collection (its name; the tenant, or null for all): the projector thread's messages. */
  touched?: (collection: string, tenantId: string | null) => void;
}

export class SlotRuntime {
  checkpoints: Collection<CheckpointDoc> | null = null;
  /** Identity of the event store, as last read: new checkpoints belong to it. */
  storeId = '';
  /** Set by the runner's stop(): no live subscription starts after it (e.g. at the end of a rebuild). */
  stopped = false;
  /** False while another instance holds the projector lease: this one writes nothing. */
  projector = true;
  /** True during the catch-up of every slot at start or takeover: recoveries wait for it to end. */
  catchingUp = false;
  /** Called after a transient failure (the runner schedules the retry: slotRecovery.ts). */
  retryLater: (slot: Slot) => void = () => undefined;
  private readonly clock = new StampClock();
  private readonly stamps = new WeakMap<Collection<ProjectedDoc>, CollectionStamps>();
  /** Slots whose subscription went idle this turn: flushed together (slotFlush.ts) in one immediate. */
  private readonly idleSlots = new Set<Slot>();
  private idleFlush: NodeJS.Immediate | null = null;
  /** Slots whose checkpoint moved over skipped events only: persisted together a moment later. */
  private readonly laggingSlots = new Set<Slot>();
  private laggingFlush: NodeJS.Timeout | null = null;
  constructor(readonly deps: SlotDeps) {}

  /** Persists the slot's checkpoint a moment later, with every other slot's that is due then (one write). */
  persistLater(slot: Slot): void {
    if (slot.lagging) return;
    slot.lagging = true;
    this.laggingSlots.add(slot);
    if (this.laggingFlush) return;
    this.laggingFlush = setTimeout(() => {
      this.laggingFlush = null;
      const slots = [...this.laggingSlots];
      this.laggingSlots.clear();
      for (const lagging of slots) lagging.lagging = false;
      flushTogether(this, slots, true);
    }, P.laggingCheckpointMs);
    this.laggingFlush.unref();
  }

  /** A write through a collection opened here draws new stamps for its tenants (writeTogether bypasses the wrapper). */
  touch(collection: unknown, ops: readonly BulkOp[]): void {
    const stamps = this.stamps.get(collection as Collection<ProjectedDoc>);
    if (!stamps) return;
    for (const op of ops) stamps.touch(op.kind === 'replace' ? op.doc.tenantId : op.tenantId);
  }

  /** The change stamp of a tenant's documents in a collection opened here (writes through it draw new ones). */
  stampOf(collection: Collection<ProjectedDoc>, tenantId: string): number | null {
    return this.stamps.get(collection)?.of(tenantId) ?? null;
  }

  /** `ensureIndexes` false: a standby instance reads the projector's collections and leaves their indexes to it. */
  async openCollections(
    projection: Projection,
    suffix: string,
    fresh: boolean,
    ensureIndexes = true,
  ): Promise<Map<string, Collection<ProjectedDoc>>> {
    const opened = new Map<string, Collection<ProjectedDoc>>();
    // The in-memory store indexes equalities only: a range index on the stamp would cost memory there for nothing.
    const stamped = this.deps.reads.kind !== 'embedded';
    const stampIndexOf = (logical: string) => (stamped && !projection.unstamped?.includes(logical) ? [CHANGED_AT_INDEX] : []);
    for (const [logical, indexes] of Object.entries(projection.collections)) {
      if (fresh) await this.deps.reads.dropCollection(logical + suffix);
      const name = logical + suffix;
      const touched = this.deps.touched;
      const stamps = new CollectionStamps(this.clock, touched && ((tenantId) => touched(name, tenantId)));
      const collection = stampedCollection(
        await this.deps.reads.collection<ProjectedDoc>(name, ensureIndexes ? [...indexes, ...stampIndexOf(logical)] : []),
        stamps,
      );
      this.stamps.set(collection, stamps);
      opened.set(logical, collection);
    }
    return opened;
  }

  /** A handler error on an event parks the event's scope; any other error fails the slot until a retry heals it. */
  onError(slot: Slot, error: unknown, event: RecordedEvent | null): 'parked' | 'failed' {
    if (event && isPoison(error, event)) {
      this.park(slot.projection, slot.parked, error, event);
      return 'parked';
    }
    this.fail(slot, error, event);
    return 'failed';
  }

  park(projection: Projection, parked: ParkedScopes, error: unknown, event: RecordedEvent): void {
    const entry = parked.park(event, describeFailure(error, event), this.deps.now());
    this.deps.logger.error('poison event: the projection stops applying this scope; every other scope goes on', {
      projection: projection.name,
      scope: entry.scope,
      tenantId: entry.tenantId,
      stream: event.streamName,
      position: event.position.toString(),
      eventType: event.type,
      error,
    });
  }

  fail(slot: Slot, error: unknown, event: RecordedEvent | null): void {
    if (slot.state === 'failed') return;
    const now = this.deps.now();
    const previous = slot.failure;
    // A failure soon after a recovery continues the previous one: a flapping store keeps its first failure time.
    const continues = previous && (previous.recoveredAt === null || now.getTime() - previous.recoveredAt.getTime() < this.deps.retry.maxMs);
    slot.failure = continues
      ? { ...previous, attempts: previous.attempts + 1, recoveredAt: null }
      : { since: now, attempts: 1, nextAttemptAt: null, recoveredAt: null };
    slot.state = 'failed';
    slot.error = describeFailure(error, event);
    this.deps.logger.error('projection failed; it retries from its checkpoint, the others go on', {
      projection: slot.projection.name,
      attempt: slot.failure.attempts,
      position: event?.position.toString(),
      eventType: event?.type,
      stream: event?.streamName,
      error,
    });
    this.stopSubscription(slot);
    this.deps.waiters.notify();
    this.retryLater(slot);
  }

  /** Stops delivery without waiting (we may be inside its handler) and without writing anything more. */
  stopSubscription(slot: Slot): void {
    const subscription = slot.subscription;
    slot.subscription = null;
    slot.liveToken = null;
    this.idleSlots.delete(slot);
    slot.lagging = false;
    this.laggingSlots.delete(slot);
    void subscription?.stop();
  }

  /** Writes the live batch, then the checkpoint (when docs changed, when forced, or every batchSize events). */
  flush(slot: Slot, force = false): Promise<void> {
    return this.projector ? flushSlot(this, slot, force) : Promise.resolve();
  }

  async flushOrFail(slot: Slot, force = false): Promise<void> {
    if (slot.state === 'failed') return;
    try {
      await this.flush(slot, force);
    } catch (error) {
      this.fail(slot, error, null);
    }
  }

  startLive(slot: Slot): void {
    if (this.stopped || !this.projector) {
      if (slot.state !== 'failed') slot.state = this.stopped ? 'stopped' : 'standby';
      return;
    }
    const token = {};
    slot.liveToken = token;
    slot.refilling = false;
    slot.state = slot.rebuilding ? 'rebuilding' : 'live';
    const after = slot.checkpoint === 0n ? undefined : slot.checkpoint;
    const subscription = this.deps.events.subscribe({ after }, (event) => this.serial(slot, () => this.onLiveEvent(slot, token, event)));
    slot.subscription = subscription;
    void subscription.failed.then((error) => {
      if (slot.liveToken === token) this.fail(slot, error, null);
    });
  }

  /** Stops the subscription, then (unless told not to: the lease was lost) flushes what it delivered and persists the checkpoint. */
  async stopLive(slot: Slot, flush = true): Promise<void> {
    const subscription = slot.subscription;
    slot.subscription = null;
    slot.liveToken = null;
    await subscription?.stop();
    this.idleSlots.delete(slot);
    slot.lagging = false;
    this.laggingSlots.delete(slot);
    if (flush) await this.serial(slot, () => this.flushOrFail(slot, true));
  }

  /** The slot as a lane of a catch-up (start, takeover, recovery): its own batch, collections and checkpoint. */
  lane(slot: Slot): ReplayLane {
    return {
      batch: slot.batch,
      types: slot.types,
      isFailed: () => slot.state === 'failed',
      flush: () => this.flush(slot),
      fail: (error, event) => void this.onError(slot, error, event),
    };
  }

  private notifyQueued = false;
  /** One waiter check per burst of events (a page is delivered within one run of microtasks). */
  private notifyWaitersSoon(): void {
    if (this.notifyQueued) return;
    this.notifyQueued = true;
    queueMicrotask(() => {
      this.notifyQueued = false;
      this.deps.waiters.notify();
    });
  }

  serial(slot: Slot, work: () => Promise<void>): Promise<void> {
    slot.pending++;
    const run = slot.queue.then(work);
    const done = () => void slot.pending--;
    slot.queue = run.then(done, done);
    return run;
  }

  private async onLiveEvent(slot: Slot, token: object, event: RecordedEvent): Promise<void> {
    if (slot.liveToken !== token || slot.state === 'failed') return;
    try {
      await slot.batch.apply(event, slot.types);
    } catch (error) {
      if (this.onError(slot, error, event) === 'failed') return;
    }
    if (slot.batch.handled >= this.deps.batchSize || slot.parked.dirty) {
      await this.flushOrFail(slot);
      return;
    }
    // Written straight into the store (embedded): readable already, so read-your-writes waits end now
    // instead of a loop turn later; the idle flush below still persists the checkpoint.
    if (slot.batch.allVisible && slot.batch.position !== slot.checkpoint) {
      slot.checkpoint = slot.batch.position;
      this.notifyWaitersSoon();
    }
    // Flush once the subscription has been idle for a tick: batches under load, ~ms latency when quiet; every slot
    // idle in the same turn flushes in the same call (one read-store transaction).
    this.idleSlots.add(slot);
    this.idleFlush ??= setImmediate(() => {
      this.idleFlush = null;
      const slots = [...this.idleSlots];
      this.idleSlots.clear();
      flushTogether(this, slots);
    });
  }
}
