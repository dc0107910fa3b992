// The two roles of a runner on a shared read store. The projector (lease holder) resumes every projection from its
// checkpoint, catches all of them up with one pass over the log and goes live. A standby instance writes nothing: it
// points its collections at the ones the projector's checkpoints name and follows their positions, so its reads and
// read-your-writes waits see the projector's progress.
import type { Logger } from '../../logger.js';
import { ProjectionBatch } from './projectionBatch.js';
import { replayLog } from './replayLog.js';
import { DOCUMENT_STAMPS, nextRebuildSuffix, readCheckpoint, versionSuffix, type CheckpointDoc } from './checkpoints.js';
import { ParkedScopes } from './parkedScopes.js';
import { cancelRetry } from './slotRecovery.js';
import { namesOf, type Slot, type SlotRuntime } from './projectionSlots.js';

/** Why a saved checkpoint cannot be resumed (the projection is rebuilt from the log), or null when it can. */
function staleCheckpoint(
  slot: Slot,
  saved: CheckpointDoc,
  head: bigint,
  storeId: string,
  logger: Logger,
): 'version' | 'stamps' | 'store' | null {
  const { name, version } = slot.projection;
  if (saved.version !== version) {
    logger.info('projection version changed: rebuilding it from the log', { projection: name, from: saved.version, to: version });
    return 'version';
  }
  if ((saved.stamps ?? 0) !== DOCUMENT_STAMPS) {
    logger.info('projection documents lack the runner stamps (_changedAt): rebuilding it from the log', { projection: name });
    return 'stamps';
  }
  if (saved.storeId === storeId && BigInt(saved.position) <= head) return null;
  // A restored backup of the log (checkpoint ahead of its head) or another store: resuming would skip new events forever.
  logger.warn('projection checkpoint does not belong to this event log (another store, or a restored copy): rebuilding', {
    projection: name,
    checkpoint: saved.position,
    head: head.toString(),
    storeChanged: saved.storeId !== storeId,
  });
  return 'store';
}

/** Takes the projector role: resume (or rebuild) every slot, catch up with one read of the log, go live. */
export async function becomeProjector(runtime: SlotRuntime, slots: Slot[], pageSize: number): Promise<bigint> {
  runtime.projector = true;
  runtime.catchingUp = true;
  try {
    return await catchUpAll(runtime, slots, pageSize);
  } finally {
    runtime.catchingUp = false;
  }
}

async function catchUpAll(runtime: SlotRuntime, slots: Slot[], pageSize: number): Promise<bigint> {
  const { events, reads, logger, replayBatchSize: batchSize } = runtime.deps;
  runtime.storeId = await events.identity();
  const head = await events.headPosition();
  const retired = new Map<Slot, string[]>();
  const unindexed = new Set<Slot>();
  for (const slot of slots) {
    const { projection } = slot;
    const saved = await readCheckpoint(runtime.checkpoints!, projection.name);
    const stale = saved ? staleCheckpoint(slot, saved, head, runtime.storeId, logger) : null;
    const current = saved !== null && stale === null;
    if (saved && !current) retired.set(slot, saved.collections);
    // Same version over another log, or unstamped: fresh collections beside the old ones, which serve until the switch.
    slot.suffix = current
      ? saved.suffix
      : stale === 'version' || !saved
        ? versionSuffix(projection.version)
        : nextRebuildSuffix(projection.version, saved.suffix);
    // Fresh collections get their indexes once filled: built in one pass instead of row by row (see below).
    slot.collections = await runtime.openCollections(projection, slot.suffix, !current, current);
    if (!current) unindexed.add(slot);
    slot.checkpoint = current ? BigInt(saved.position) : 0n;
    slot.storeId = runtime.storeId;
    slot.persisted = current ? slot.checkpoint : -1n;
    slot.parked = ParkedScopes.from(current ? saved.parked : undefined);
    slot.batch = new ProjectionBatch(projection, slot.collections, slot.checkpoint, slot.parked);
    if (!current) slot.batch.freshBuild();
    slot.failure = undefined;
    slot.error = undefined;
    slot.state = 'catching-up';
  }
  // One pass over the log feeds every projection (each skips what its checkpoint already covers).
  const reached = await replayLog(
    events,
    slots.map((slot) => runtime.lane(slot)),
    { until: head, batchSize, pageSize },
  );
  for (const slot of slots) {
    await runtime.flushOrFail(slot, true);
    slot.batch.endFreshBuild(); // live from here: read through the store again
    if (unindexed.has(slot)) {
      // Documents that break a unique index fail the projection (as a write breaking it would), not the start.
      await runtime.openCollections(slot.projection, slot.suffix, false, true).catch((error: unknown) => runtime.fail(slot, error, null));
    }
    if (slot.state === 'failed') continue; // it retries from its checkpoint
    const keep = new Set(namesOf(slot.collections));
    for (const name of retired.get(slot) ?? []) if (!keep.has(name)) await reads.dropCollection(name);
    runtime.startLive(slot);
  }
  return reached;
}

/** Standby: read every projection's checkpoint and point its collections at what the projector serves. */
export async function followProjector(runtime: SlotRuntime, slots: Slot[]): Promise<void> {
  for (const slot of slots) {
    const { projection } = slot;
    const saved = await readCheckpoint(runtime.checkpoints!, projection.name);
    const suffix = saved?.suffix ?? versionSuffix(projection.version);
    if (suffix !== slot.suffix || slot.collections.size === 0) {
      slot.collections = await runtime.openCollections(projection, suffix, false, false);
      slot.suffix = suffix;
    }
    if (saved) {
      slot.checkpoint = BigInt(saved.position);
      slot.parked = ParkedScopes.from(saved.parked);
    }
    slot.state = 'standby';
  }
  runtime.deps.waiters.notify();
}

/** The lease was lost: stop projecting at once, writing nothing more, and follow the new projector. */
export async function stepDown(runtime: SlotRuntime, slots: Slot[]): Promise<void> {
  runtime.projector = false;
  for (const slot of slots) {
    cancelRetry(slot);
    await runtime.stopLive(slot, false);
    slot.failure = undefined;
    slot.error = undefined;
    slot.state = 'standby';
  }
  await followProjector(runtime, slots);
}
