// Healing a failed projection: after a backoff delay it catches up from its checkpoint with one read of the log
// (which proves the event store answers), writes its checkpoint (which proves the read store takes writes), then
// subscribes again. A failed attempt waits longer (exponential, capped, with jitter). A checkpoint from another event
// store, or ahead of the head (a log restored from a backup), is no place to resume: the projection is rebuilt.
import { ProjectionBatch } from './projectionBatch.js';
import { replayLog } from './replayLog.js';
import { rebuildSlot } from './projectionRebuild.js';
import { retryDelayMs } from './projectionFailures.js';
import type { Slot, SlotRuntime } from './projectionSlots.js';

/** Events per readAll page of a recovery's catch-up. */
const RECOVERY_PAGE = 1000;

export function scheduleRetry(runtime: SlotRuntime, slot: Slot): void {
  if (slot.retryTimer) clearTimeout(slot.retryTimer);
  slot.retryTimer = null;
  const failure = slot.failure;
  if (runtime.stopped || !failure) return;
  const delay = retryDelayMs(runtime.deps.retry, failure.attempts);
  failure.nextAttemptAt = new Date(runtime.deps.now().getTime() + delay);
  slot.retryTimer = setTimeout(() => {
    slot.retryTimer = null;
    void runtime.serial(slot, () => resumeSlot(runtime, slot));
  }, delay);
}

export function cancelRetry(slot: Slot): void {
  if (slot.retryTimer) clearTimeout(slot.retryTimer);
  slot.retryTimer = null;
}

/** One recovery attempt (runs in the slot's queue); a failure inside it schedules the next one. */
export async function resumeSlot(runtime: SlotRuntime, slot: Slot): Promise<void> {
  // A rebuild in progress restarts the slot itself; a stopped runner or a lost lease does not project.
  if (runtime.stopped || !runtime.projector || slot.rebuilding || slot.state !== 'failed') return;
  // The start-up (or takeover) catch-up still holds every slot: try again once it is over.
  if (runtime.catchingUp) return scheduleRetry(runtime, slot);
  const { events, logger, replayBatchSize: batchSize } = runtime.deps;
  const name = slot.projection.name;
  slot.state = 'catching-up';
  try {
    const [head, storeId] = await Promise.all([events.headPosition(), events.identity()]);
    if (storeId !== slot.storeId || slot.checkpoint > head) {
      logger.warn('projection checkpoint does not belong to this event log (another store, or a restored copy): rebuilding', {
        projection: name,
        checkpoint: slot.checkpoint.toString(),
        head: head.toString(),
        storeChanged: storeId !== slot.storeId,
      });
      runtime.storeId = storeId;
      slot.checkpoint = 0n; // a position of another log: no wait may count it as reached
      slot.rebuilding = true;
      slot.state = 'rebuilding';
      await rebuildSlot(runtime, slot, RECOVERY_PAGE);
    } else {
      slot.batch = new ProjectionBatch(slot.projection, slot.collections, slot.checkpoint, slot.parked);
      await replayLog(events, [runtime.lane(slot)], { until: head, batchSize, pageSize: RECOVERY_PAGE });
      if (isStillFailed(slot)) return; // failed again: the next attempt is scheduled
      await runtime.flush(slot, true);
      runtime.startLive(slot);
    }
  } catch (error) {
    // fail() ignores a slot already marked failed (by the attempt itself); otherwise this failure schedules the next.
    runtime.fail(slot, error, null);
    return;
  }
  if (slot.failure) slot.failure.recoveredAt = runtime.deps.now();
  slot.error = undefined;
  logger.info('projection recovered', { projection: name, position: slot.checkpoint.toString() });
}

/** Read through a function: the compiler cannot see that an awaited call changed the state. */
const isStillFailed = (slot: Slot): boolean => slot.state === 'failed';
