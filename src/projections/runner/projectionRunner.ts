// The projection runner: catch-up then live per projection, checkpoints in the read store, batched
// idempotent writes, rebuild into a fresh versioned collection, lag and bounded read-your-writes waits.
// It heals: poison events park one scope, store and subscription failures retry from the checkpoint
// (slotRecovery.ts), and on a shared read store only the lease holder projects (projectorRole.ts).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Collection, ReadDoc, ReadStore } from '../../stores/readStore.js';
import type { EventStore } from '../../stores/eventStore.js';
import type { Logger } from '../../logger.js';
import { LIMITS } from '../../limits.js';
import { PositionWaiters } from './positionWaiters.js';
import { slotCollection } from './switchingCollection.js';
import { CHECKPOINTS_COLLECTION, versionSuffix, type CheckpointDoc } from './checkpoints.js';
import { SlotRuntime, isFailing, newSlot, type Slot } from './projectionSlots.js';
import { rebuildSlot } from './projectionRebuild.js';
import { refillSlots } from './refillSlots.js';
import { cancelRetry, scheduleRetry } from './slotRecovery.js';
import { becomeProjector, followProjector, stepDown } from './projectorRole.js';
import { ProjectorLease, type LeasePolicy } from './projectorLease.js';
import type { RetryPolicy } from './projectionFailures.js';
import type { ProjectionRunner, ProjectionStatus, RunnerWatch, SlotView } from './runnerTypes.js';

/**
 * Events per readAll page during catch-up and rebuilds. Small enough that a page in flight dies young: at 5000
 * (~10 MB of events) most of each page outlived a scavenge and was promoted (1M-event catch-up: 760 MiB
 * promoted and 740 MiB peak RSS, against 355 MiB and 570 MiB at 250-2000).
 */
const PAGE_SIZE = 1000;

const P = LIMITS.projections;

export interface ProjectionRunnerDeps {
  events: EventStore;
  reads: ReadStore;
  logger: Logger;
  batchSize?: number;
  /** Events per write-back while replaying the log (start, rebuild, recovery); the live batch size when that is given. */
  replayBatchSize?: number;
  /** The service clock: failure times, parking times and lease expiry. */
  now?: () => Date;
  retry?: RetryPolicy;
  lease?: LeasePolicy & { holder?: string };
  standbyFollowMs?: number;
  /** The projector thread's view of the runner (projectorThread.ts): advances and writes, passed on to the main thread. */
  watch?: RunnerWatch;
}

export function createProjectionRunner(deps: ProjectionRunnerDeps): ProjectionRunner & { views(): SlotView[] } {
  const { events, reads, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const waiters = new PositionWaiters(deps.watch && (() => deps.watch!.changed()));
  const runtime = new SlotRuntime({
    events,
    reads,
    logger,
    waiters,
    now,
    batchSize: Math.max(1, deps.batchSize ?? 1000),
    // A replay writes far fewer documents than it reads events when its batches are large (the rows are re-read).
    replayBatchSize: Math.max(1, deps.replayBatchSize ?? deps.batchSize ?? P.replayBatchEvents),
    rebuildBatchSize: Math.max(1, deps.replayBatchSize ?? deps.batchSize ?? P.rebuildBatchEvents),
    retry: deps.retry ?? { initialMs: P.retryInitialMs, maxMs: P.retryMaxMs },
    ...(deps.watch ? { touched: deps.watch.touched.bind(deps.watch) } : {}),
  });
  runtime.retryLater = (slot) => scheduleRetry(runtime, slot);
  const leasePolicy = deps.lease ?? { ttlMs: P.leaseTtlSeconds * 1000, renewMs: P.leaseRenewSeconds * 1000 };
  const holder = deps.lease?.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const lease = new ProjectorLease(reads, holder, now, leasePolicy, logger);
  const slots = new Map<string, Slot>();
  const handles = new Map<string, Collection>();
  let started = false;
  let lastHead = 0n;
  let follower: NodeJS.Timeout | null = null;
  // Role changes run one at a time.
  let roleChange: Promise<void> = Promise.resolve();

  const slotOf = (name: string): Slot => {
    const slot = slots.get(name);
    if (!slot) throw new Error(`unknown projection '${name}'`);
    return slot;
  };
  const all = () => [...slots.values()];

  const follow = (): void => {
    if (follower || runtime.stopped) return;
    const tick = async () => {
      if (runtime.projector || runtime.stopped) return void (follower = null);
      await followProjector(runtime, all()).catch((error: unknown) => logger.warn('standby: reading checkpoints failed', { error }));
      follower = setTimeout(() => void tick(), deps.standbyFollowMs ?? P.standbyFollowMs);
    };
    follower = setTimeout(() => void tick(), deps.standbyFollowMs ?? P.standbyFollowMs);
  };

  const onLeaseChange = (held: boolean): Promise<void> =>
    (roleChange = roleChange.then(async () => {
      if (runtime.stopped) return;
      if (!held) {
        logger.warn('projector lease lost: this instance stops projecting and follows the new holder', { holder });
        await stepDown(runtime, all());
        follow();
        return;
      }
      logger.info('projector lease taken: this instance projects from the checkpoints', { holder });
      try {
        await becomeProjector(runtime, all(), PAGE_SIZE);
      } catch (error) {
        logger.error('taking over the projections failed; standing by again', { error });
        await stepDown(runtime, all());
        await lease.giveUp();
        follow();
        throw error;
      }
    }));

  return {
    register(projection) {
      if (started) throw new Error('register projections before start()');
      if (slots.has(projection.name)) throw new Error(`projection '${projection.name}' registered twice`);
      if (!Number.isInteger(projection.version) || projection.version < 1)
        throw new Error(`projection '${projection.name}': version must be a positive integer`);
      slots.set(projection.name, newSlot(projection, versionSuffix(projection.version)));
    },

    async start() {
      if (started) throw new Error('projection runner already started');
      started = true;
      const startedAt = Date.now();
      runtime.checkpoints = await reads.collection<CheckpointDoc>(CHECKPOINTS_COLLECTION);
      runtime.storeId = await events.identity();
      if (await lease.attempt()) {
        const reached = await becomeProjector(runtime, all(), PAGE_SIZE);
        logger.info('projections caught up', { projections: slots.size, position: reached.toString(), ms: Date.now() - startedAt });
      } else {
        runtime.projector = false;
        await followProjector(runtime, all());
        logger.info('another instance holds the projector lease: standing by', { projections: slots.size, holder });
        follow();
      }
      lease.keep(onLeaseChange);
    },

    async stop() {
      runtime.stopped = true;
      if (follower) clearTimeout(follower);
      follower = null;
      await roleChange.catch(() => undefined);
      for (const slot of slots.values()) {
        cancelRetry(slot);
        await runtime.stopLive(slot, runtime.projector);
        if (slot.state !== 'failed') slot.state = 'stopped';
      }
      await lease.release();
      waiters.cancelAll();
    },

    collection<T extends ReadDoc = ReadDoc>(projection: string, logical: string): Collection<T> {
      return slotCollection<T>(handles, slotOf, projection, logical);
    },

    async waitFor(position, options = {}) {
      const { tenant } = options;
      const targets = (options.projections ?? [...slots.keys()]).map(slotOf).map((slot) => ({
        reached: (p: bigint) => slot.checkpoint >= p,
        // A failed projection is not stuck: it retries, and the wait is bounded anyway.
        stuck: () => runtime.stopped,
        refuses: (p: bigint) => tenant !== undefined && slot.parked.blocksTenant(tenant, p),
      }));
      return waiters.wait(position, targets, options.timeoutMs ?? 5000);
    },

    changeStamp(projection, logical, tenantId) {
      // Standby: the lease holder writes these documents in another process, unseen by the stamps.
      if (!runtime.projector || runtime.stopped) return null;
      const current = slotOf(projection).collections.get(logical);
      return current ? runtime.stampOf(current, tenantId) : null;
    },

    checkpointOf(name) {
      return slotOf(name).checkpoint;
    },

    views() {
      return all().map((slot) => ({
        name: slot.projection.name,
        collections: Object.fromEntries([...slot.collections].map(([logical, c]) => [logical, c.name])),
        checkpoint: slot.checkpoint.toString(),
        parked: slot.parked.list(),
        refilling: slot.refilling === true,
      }));
    },

    async status() {
      // The status must answer while the event store is down (that is when it matters): the last head seen then.
      lastHead = await events.headPosition().catch(() => lastHead);
      const head = lastHead;
      // Stood down because the read store did not answer (a full disk): nobody projects, so not a healthy standby.
      const cut = runtime.projector ? null : lease.standingDownBecause();
      return all().map((slot): ProjectionStatus => {
        const failure = isFailing(slot) ? slot.failure : undefined;
        const stoodDown = slot.state === 'standby' ? cut : null;
        const error = stoodDown ?? slot.error;
        return {
          name: slot.projection.name,
          version: slot.projection.version,
          state: stoodDown ? 'failed' : slot.state,
          checkpoint: slot.checkpoint.toString(),
          head: head.toString(),
          lag: head > slot.checkpoint ? Number(head - slot.checkpoint) : 0,
          ...(error ? { error } : {}),
          ...(failure
            ? {
                failedSince: failure.since.toISOString(),
                retry: { attempts: failure.attempts, nextAttemptAt: failure.nextAttemptAt?.toISOString() ?? null },
              }
            : {}),
          parked: slot.parked.list(),
          ...(slot.rebuild ? { rebuild: slot.rebuild } : {}),
        };
      });
    },

    async refill(first = []) {
      if (!started || runtime.stopped) return;
      for (const slot of slots.values()) {
        slot.refilling = true; // at once: the reads of the emptied store answer 503 from here on
        slot.checkpoint = 0n;
      }
      waiters.notify();
      await (roleChange = roleChange.then(() => refillSlots(runtime, all(), first, PAGE_SIZE)));
    },

    async rebuild(name, onProgress) {
      const slot = slotOf(name);
      if (!started || !runtime.checkpoints) throw new Error('start the projection runner before a rebuild');
      if (!runtime.projector) throw new Error(`projection '${name}' is projected by another instance (it holds the projector lease)`);
      if (slot.rebuilding) throw new Error(`projection '${name}' is already rebuilding`);
      slot.rebuilding = true;
      if (slot.state !== 'failed') slot.state = 'rebuilding';
      logger.info('projection rebuild started', { projection: name });
      await rebuildSlot(runtime, slot, PAGE_SIZE, onProgress);
      logger.info('projection rebuild finished', { projection: name, ...slot.rebuild });
    },
  };
}
