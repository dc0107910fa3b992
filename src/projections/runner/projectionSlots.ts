// Live handling of one projection ("slot"): its current collections and checkpoint, the live subscription
// with batched, serialised handling, flushes that write documents then the checkpoint, and failure.
import type { ProjectedDoc, Projection } from './projection.js';
import type { Collection, ReadStore } from '../../stores/readStore.js';
import type { EventStore, RecordedEvent, Subscription } from '../../stores/eventStore.js';
import type { Logger } from '../../logger.js';
import type { ProjectionStatus, RebuildProgress } from './runnerTypes.js';
import { ProjectionBatch } from './projectionBatch.js';
import type { ReplayLane } from './replayLog.js';
import type { PositionWaiters } from './positionWaiters.js';
import { writeCheckpoint, type CheckpointDoc } from './checkpoints.js';

export interface Slot {
  projection: Projection;
  types: ReadonlySet<string>;
  state: ProjectionStatus['state'];
  error?: string;
  /** Versioned collections serving reads, by logical name. */
  collections: Map<string, Collection<ProjectedDoc>>;
  suffix: string;
  /** Last position whose effects are visible in the read store. */
  checkpoint: bigint;
  /** Last position written to the checkpoint document. */
  persisted: bigint;
  /** Live batch, bound to `collections`. */
  batch: ProjectionBatch;
  subscription: Subscription | null;
  /** Identifies the current live subscription: events of a stopped one are ignored. */
  liveToken: object | null;
  /** Serialises live handling and idle flushes. */
  queue: Promise<void>;
  idle: NodeJS.Immediate | null;
  rebuilding: boolean;
  rebuild?: RebuildProgress;
}

export function newSlot(projection: Projection, suffix: string): Slot {
  return {
    projection,
    types: new Set(projection.eventTypes),
    state: 'stopped',
    collections: new Map(),
    suffix,
    checkpoint: 0n,
    persisted: -1n,
    batch: new ProjectionBatch(projection, new Map(), 0n),
    subscription: null,
    liveToken: null,
    queue: Promise.resolve(),
    idle: null,
    rebuilding: false,
  };
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
export const describeFailure = (error: unknown, event: RecordedEvent | null): string =>
  event ? `${errorText(error)} (event ${event.type} at position ${event.position})` : errorText(error);
export const namesOf = (collections: Map<string, Collection<ProjectedDoc>>): string[] => [...collections.values()].map((c) => c.name);

export interface SlotDeps {
  events: EventStore;
  reads: ReadStore;
  logger: Logger;
  batchSize: number;
  waiters: PositionWaiters;
}

export class SlotRuntime {
  checkpoints: Collection<CheckpointDoc> | null = null;
  /** Set by the runner's stop(): no live subscription starts after it (e.g. at the end of a rebuild). */
  stopped = false;
  constructor(readonly deps: SlotDeps) {}

  async openCollections(projection: Projection, suffix: string, fresh: boolean): Promise<Map<string, Collection<ProjectedDoc>>> {
    const opened = new Map<string, Collection<ProjectedDoc>>();
    for (const [logical, indexes] of Object.entries(projection.collections)) {
      if (fresh) await this.deps.reads.dropCollection(logical + suffix);
      opened.set(logical, await this.deps.reads.collection<ProjectedDoc>(logical + suffix, indexes));
    }
    return opened;
  }

  fail(slot: Slot, error: unknown, event: RecordedEvent | null): void {
    if (slot.state === 'failed') return;
    slot.state = 'failed';
    slot.error = describeFailure(error, event);
    this.deps.logger.error('projection failed; it stops here, the others go on', {
      projection: slot.projection.name,
      position: event?.position.toString(),
      eventType: event?.type,
      stream: event?.streamName,
      error,
    });
    const subscription = slot.subscription;
    slot.subscription = null;
    slot.liveToken = null;
    void subscription?.stop(); // not awaited: we may be inside its handler
    this.deps.waiters.notify();
  }

  /** Writes the live batch, then the checkpoint (when docs changed, when forced, or every batchSize events). */
  async flush(slot: Slot, force = false): Promise<void> {
    const batch = slot.batch;
    const written = await batch.writeBack();
    const due = written > 0 || batch.unpersisted >= this.deps.batchSize || (force && batch.position !== slot.persisted);
    if (due && this.checkpoints) {
      const { name, version } = slot.projection;
      await writeCheckpoint(this.checkpoints, name, {
        version,
        position: batch.position,
        suffix: slot.suffix,
        collections: namesOf(slot.collections),
      });
      slot.persisted = batch.position;
      batch.unpersisted = 0;
    }
    if (batch.position !== slot.checkpoint) {
      slot.checkpoint = batch.position;
      this.deps.waiters.notify();
    }
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
    if (this.stopped) {
      slot.state = slot.state === 'failed' ? 'failed' : 'stopped';
      return;
    }
    const token = {};
    slot.liveToken = token;
    slot.state = slot.rebuilding ? 'rebuilding' : 'live';
    const after = slot.checkpoint === 0n ? undefined : slot.checkpoint;
    const subscription = this.deps.events.subscribe({ after }, (event) => this.serial(slot, () => this.onLiveEvent(slot, token, event)));
    slot.subscription = subscription;
    void subscription.failed.then((error) => {
      if (slot.liveToken === token) this.fail(slot, error, null);
    });
  }

  /** Stops the subscription, then flushes what it delivered and persists the checkpoint. */
  async stopLive(slot: Slot): Promise<void> {
    const subscription = slot.subscription;
    slot.subscription = null;
    slot.liveToken = null;
    await subscription?.stop();
    if (slot.idle) clearImmediate(slot.idle);
    slot.idle = null;
    await this.serial(slot, () => this.flushOrFail(slot, true));
  }

  /** The slot as a lane of the start-up catch-up: its own batch, collections and checkpoint. */
  lane(slot: Slot): ReplayLane {
    return {
      batch: slot.batch,
      types: slot.types,
      isFailed: () => slot.state === 'failed',
      flush: () => this.flush(slot),
      fail: (error, event) => this.fail(slot, error, event),
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

  private serial(slot: Slot, work: () => Promise<void>): Promise<void> {
    const run = slot.queue.then(work);
    slot.queue = run.catch(() => undefined);
    return run;
  }

  private async onLiveEvent(slot: Slot, token: object, event: RecordedEvent): Promise<void> {
    if (slot.liveToken !== token || slot.state === 'failed') return;
    try {
      await slot.batch.apply(event, slot.types);
    } catch (error) {
      this.fail(slot, error, event);
      return;
    }
    if (slot.batch.handled >= this.deps.batchSize) {
      await this.flushOrFail(slot);
      return;
    }
    // Written straight into the store (embedded): readable already, so read-your-writes waits end now
    // instead of a loop turn later; the idle flush below still persists the checkpoint.
    if (slot.batch.allVisible && slot.batch.position !== slot.checkpoint) {
      slot.checkpoint = slot.batch.position;
      this.notifyWaitersSoon();
    }
    // Flush once the subscription has been idle for a tick: batches under load, ~ms latency when quiet.
    slot.idle ??= setImmediate(() => {
      slot.idle = null;
      void this.serial(slot, () => this.flushOrFail(slot));
    });
  }
}
