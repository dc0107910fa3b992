// Rebuild of one projection: replay the whole log into fresh collections (`<logical>_v<version>_r<n>`) while
// live handling goes on over the old ones, then stop live, replay what arrived meanwhile, switch reads,
// drop the old collections and resume live handling from the rebuilt checkpoint.
import type { RebuildProgress } from './runnerTypes.js';
import { ProjectionBatch } from './projectionBatch.js';
import { replayLog, type ReplayLane } from './replayLog.js';
import { rebuildProgress } from './rebuildProgress.js';
import { nextRebuildSuffix, writeCheckpoint } from './checkpoints.js';
import { describeFailure, namesOf, type Slot, type SlotRuntime } from './projectionSlots.js';
import { ParkedScopes } from './parkedScopes.js';
import { isPoison } from './projectionFailures.js';

const PROGRESS_EVERY_MS = 1000;

export async function rebuildSlot(
  runtime: SlotRuntime,
  slot: Slot,
  pageSize: number,
  onProgress?: (progress: RebuildProgress) => void,
): Promise<void> {
  const { events, reads, logger, rebuildBatchSize: batchSize, waiters } = runtime.deps;
  const { projection } = slot;
  const suffix = nextRebuildSuffix(projection.version, slot.suffix);
  const startedAt = Date.now();
  // Indexed once filled, before the switch: one sorted build per index instead of an update per row.
  const fresh = await runtime.openCollections(projection, suffix, true, false);
  // Poison events are judged afresh: a fixed handler un-parks its scopes, a still-broken one parks them again.
  const parked = new ParkedScopes();
  const batch = new ProjectionBatch(projection, fresh, 0n, parked);
  batch.freshBuild(); // only this batch writes the fresh collections until the switch
  let failure: Error | null = null;
  const lane: ReplayLane = {
    batch,
    types: slot.types,
    isFailed: () => failure !== null,
    flush: async () => void (await batch.writeBack()),
    fail: (error, event) => {
      if (event && isPoison(error, event)) runtime.park(projection, parked, error, event);
      else failure ??= new Error(describeFailure(error, event));
    },
  };

  let done = 0;
  let head = await events.headPosition();
  let lastReport = startedAt;
  const report = (finished: boolean) => {
    slot.rebuild = rebuildProgress(projection.name, { done, position: batch.position, head, startedAt, finished });
    try {
      onProgress?.(slot.rebuild);
    } catch (error) {
      logger.warn('rebuild progress callback threw', { projection: projection.name, error });
    }
  };
  const replay = async (base: number) => {
    const onPage = (_position: bigint, read: number) => {
      done = base + read;
      if (Date.now() - lastReport < PROGRESS_EVERY_MS) return;
      lastReport = Date.now();
      report(false);
    };
    await replayLog(events, [lane], { until: head, batchSize, pageSize, onPage });
    if (failure) throw failure;
  };

  let liveStopped = false;
  try {
    report(false); // visible from the first moment (GET /sistema/proyecciones/{name}), not after the first second
    await replay(0);
    if (slot.subscription) {
      await runtime.stopLive(slot);
      liveStopped = true;
    }
    head = await events.headPosition();
    await replay(done);
    // Only the lease holder switches reads and drops collections: another instance may serve them now.
    if (!runtime.projector) throw new Error('the projector lease was lost during the rebuild');
    await runtime.openCollections(projection, suffix, false, true);
    const retired = namesOf(slot.collections);
    parked.dirty = false;
    await writeCheckpoint(runtime.checkpoints!, projection.name, {
      version: projection.version,
      position: batch.position,
      suffix,
      collections: namesOf(fresh),
      storeId: runtime.storeId,
      parked: parked.list(),
    });
    const storeId = runtime.storeId;
    Object.assign(slot, {
      collections: fresh,
      suffix,
      checkpoint: batch.position,
      persisted: batch.position,
      error: undefined,
      parked,
      storeId,
    });
    slot.batch = new ProjectionBatch(projection, fresh, batch.position, parked);
    for (const name of retired) await reads.dropCollection(name);
    report(true);
    slot.rebuilding = false;
    runtime.startLive(slot); // a rebuild heals a failed projection too
    if (slot.failure && slot.failure.recoveredAt === null) slot.failure.recoveredAt = runtime.deps.now();
    waiters.notify();
  } catch (error) {
    for (const name of namesOf(fresh)) await reads.dropCollection(name).catch(() => undefined);
    slot.rebuilding = false;
    if (liveStopped) runtime.startLive(slot);
    else if (slot.state === 'rebuilding') slot.state = slot.subscription ? 'live' : 'stopped';
    // A failed projection's retry skipped its turn while the rebuild ran: schedule it again.
    if (slot.state === 'failed' && !slot.retryTimer) runtime.retryLater(slot);
    throw error;
  }
}
