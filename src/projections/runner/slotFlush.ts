// A projection's flush: its changed documents, then its checkpoint, handed to writeTogether. The live flushes of every
// projection idle in the same turn of the event loop go in one call (one read-store transaction on SQLite instead of one
// per collection and projection); each projection's failure stays its own, as when it flushed alone.
import { withSpan } from '../../observability/tracing.js';
import { writeTogether, type GroupWrite } from '../../stores/writeTogether.js';
import { checkpointDocOf } from './checkpoints.js';
import type { BulkOp, Collection, ReadStore } from '../../stores/readStore.js';
import type { ProjectedDoc, Projection } from './projection.js';
import type { ProjectionBatch } from './projectionBatch.js';
import type { ParkedScopes } from './parkedScopes.js';
import type { PositionWaiters } from './positionWaiters.js';
import type { CheckpointDoc } from './checkpoints.js';

/** What a flush reads and moves of a slot (projectionSlots.ts Slot). */
export interface Slot {
  projection: Projection;
  batch: ProjectionBatch;
  parked: ParkedScopes;
  suffix: string;
  collections: Map<string, Collection<ProjectedDoc>>;
  storeId: string;
  persisted: bigint;
  checkpoint: bigint;
  subscription: unknown;
  state: string;
  pending: number;
}

/** What a flush needs of the runtime (projectionSlots.ts SlotRuntime). */
export interface SlotRuntime<S extends Slot = Slot> {
  readonly deps: { reads: ReadStore; batchSize: number; waiters: PositionWaiters };
  checkpoints: Collection<CheckpointDoc> | null;
  projector: boolean;
  touch(collection: unknown, ops: readonly BulkOp[]): void;
  persistLater(slot: S): void;
  serial(slot: S, work: () => Promise<void>): Promise<void>;
  flushOrFail(slot: S, force?: boolean): Promise<void>;
  fail(slot: S, error: unknown, event: null): void;
}

export interface FlushPlan<S extends Slot = Slot> {
  slot: S;
  /** The batch's bulk writes, then (when due) its checkpoint: a group stops at its first failure. */
  writes: GroupWrite[];
  checkpointed: boolean;
  position: bigint;
  /** Called once the writes succeeded: a fresh build then holds the written documents (projectionBatch.ts). */
  stored: () => void;
}

/** Takes the batch's changes and decides on the checkpoint (when docs changed, when forced, or every batchSize events). */
export function planFlush<S extends Slot>(runtime: SlotRuntime<S>, slot: S, force: boolean): FlushPlan<S> {
  const batch = slot.batch;
  const { writes, written, stored } = batch.takeWrites();
  const group: GroupWrite[] = writes;
  const due =
    written > 0 || slot.parked.dirty || batch.unpersisted >= runtime.deps.batchSize || (force && batch.position !== slot.persisted);
  const checkpointed = due && runtime.checkpoints !== null;
  if (checkpointed) {
    const { name, version } = slot.projection;
    slot.parked.dirty = false;
    const state = {
      version,
      position: batch.position,
      suffix: slot.suffix,
      collections: [...slot.collections.values()].map((c) => c.name),
      storeId: slot.storeId,
      parked: slot.parked.list(),
    };
    group.push({ collection: runtime.checkpoints!, replace: checkpointDocOf(name, state) });
  }
  return { slot, writes: group, checkpointed, position: batch.position, stored };
}

/** After the write: the stamps, the checkpoint and the waiters; a failure is thrown (the caller fails the slot). */
export function settleFlush<S extends Slot>(runtime: SlotRuntime<S>, plan: FlushPlan<S>, failure: unknown): void {
  const { slot } = plan;
  for (const write of plan.writes) if ('ops' in write) runtime.touch(write.collection, write.ops);
  if (failure !== null && failure !== undefined) {
    if (plan.checkpointed) slot.parked.dirty = true;
    throw failure as Error;
  }
  plan.stored();
  const batch = slot.batch;
  if (plan.checkpointed) {
    slot.persisted = plan.position;
    batch.unpersisted = 0;
  }
  if (plan.position !== slot.checkpoint) {
    slot.checkpoint = plan.position;
    runtime.deps.waiters.notify();
  }
  // Skipped events alone do not pay a checkpoint write each; a standby reads it a moment later.
  if (batch.position !== slot.persisted && slot.subscription) runtime.persistLater(slot);
}

/** One slot's flush (in its queue): a group of one. */
export async function flushSlot<S extends Slot>(runtime: SlotRuntime<S>, slot: S, force: boolean): Promise<void> {
  const plan = planFlush(runtime, slot, force);
  const [failure] = await withSpan('projection batch', undefined, () => writeTogether(runtime.deps.reads, [plan.writes]), {
    projection: slot.projection.name,
  });
  settleFlush(runtime, plan, failure);
}

/**
 * The idle (or lagging: `force`) flush of several slots at once. A slot with nothing queued is planned now and its settling queued behind
 * nothing, so no event of it is applied before its write is done; a busy one (an event or a recovery in its queue)
 * flushes alone after that work, as before.
 */
export function flushTogether<S extends Slot>(runtime: SlotRuntime<S>, slots: S[], force = false): void {
  const ready: S[] = [];
  for (const slot of slots) {
    if (slot.state === 'failed') continue;
    if (slot.pending === 0 && runtime.projector) ready.push(slot);
    else void runtime.serial(slot, () => runtime.flushOrFail(slot, force));
  }
  if (ready.length === 0) return;
  const plans = ready.map((slot) => planFlush(runtime, slot, force));
  const results = withSpan(
    'projection batch',
    undefined,
    () =>
      writeTogether(
        runtime.deps.reads,
        plans.map((plan) => plan.writes),
      ),
    {
      projections: ready.length,
    },
  ).catch((error: unknown) => plans.map(() => error));
  plans.forEach((plan, i) => {
    void runtime.serial(plan.slot, async () => {
      const failure = (await results)[i];
      if (plan.slot.state === 'failed') return;
      try {
        settleFlush(runtime, plan, failure);
      } catch (error) {
        runtime.fail(plan.slot, error, null);
      }
    });
  });
}
