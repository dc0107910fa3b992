// Rebuild of one projection: replay the whole log into fresh collections (`<logical>_v<version>_r<n>`) while
// live handling goes on over the old ones, then stop live, replay what arrived meanwhile, switch reads,
// drop the old collections and resume live handling from the rebuilt checkpoint.
import type { RebuildProgress } from './runnerTypes.js';
import { ProjectionBatch } from './projectionBatch.js';
import { replayLog, type ReplayLane } from './replayLog.js';
import { rebuildProgress } from './rebuildProgress.js';
import { nextRebuildSuffix, writeCheckpoint } from './checkpoints.js';
import { describeFailure, namesOf, type Slot, type SlotRuntime } from './projectionSlots.js';

const PROGRESS_EVERY_MS = 1000;

export async function rebuildSlot(
  runtime: SlotRuntime,
  slot: Slot,
  pageSize: number,
  onProgress?: (progress: RebuildProgress) => void,
): Promise<void> {
  const { events, reads, logger, batchSize, waiters } = runtime.deps;
  const { projection } = slot;
  const suffix = nextRebuildSuffix(projection.version, slot.suffix);
  const startedAt = Date.now();
  const fresh = await runtime.openCollections(projection, suffix, true);
  const batch = new ProjectionBatch(projection, fresh, 0n);
  let failure: Error | null = null;
  const lane: ReplayLane = {
    batch,
    types: slot.types,
    isFailed: () => failure !== null,
    flush: async () => void (await batch.writeBack()),
    fail: (error, event) => void (failure ??= new Error(describeFailure(error, event))),
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
    await replay(0);
    if (slot.subscription) {
      await runtime.stopLive(slot);
      liveStopped = true;
    }
    head = await events.headPosition();
    await replay(done);
    const retired = namesOf(slot.collections);
    await writeCheckpoint(runtime.checkpoints!, projection.name, {
      version: projection.version,
      position: batch.position,
      suffix,
      collections: namesOf(fresh),
    });
    Object.assign(slot, { collections: fresh, suffix, checkpoint: batch.position, persisted: batch.position, error: undefined });
    slot.batch = new ProjectionBatch(projection, fresh, batch.position);
    for (const name of retired) await reads.dropCollection(name);
    report(true);
    slot.rebuilding = false;
    runtime.startLive(slot);
    waiters.notify();
  } catch (error) {
    for (const name of namesOf(fresh)) await reads.dropCollection(name).catch(() => undefined);
    slot.rebuilding = false;
    if (liveStopped) runtime.startLive(slot);
    else if (slot.state === 'rebuilding') slot.state = slot.subscription ? 'live' : 'stopped';
    throw error;
  }
}
