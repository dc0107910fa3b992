// Refilling every projection into a read store that was replaced by an empty one (its file was found damaged): live
// handling stops, then the projections catch up from the start of the log with the start's one-pass catch-up, those
// named `first` (what sign-in reads) in a pass of their own so that requests are served again sooner.
import { becomeProjector } from './projectorRole.js';
import { cancelRetry } from './slotRecovery.js';
import type { Slot, SlotRuntime } from './projectionSlots.js';

export async function refillSlots(runtime: SlotRuntime, slots: Slot[], first: string[], pageSize: number): Promise<void> {
  if (runtime.stopped || !runtime.projector) return;
  for (const slot of slots) {
    cancelRetry(slot);
    slot.refilling = true;
    slot.rebuilding = false;
    // In the slot's queue: a live batch or a recovery running now ends before the slot is reset.
    await runtime.serial(slot, () => runtime.stopLive(slot, false));
    cancelRetry(slot);
    slot.state = 'catching-up';
    slot.checkpoint = 0n;
  }
  runtime.deps.waiters.notify();
  const early = slots.filter((slot) => first.includes(slot.projection.name));
  const late = slots.filter((slot) => !first.includes(slot.projection.name));
  for (const group of [early, late]) {
    if (group.length === 0 || runtime.stopped) continue;
    // No checkpoint in the fresh store: each opens fresh collections and replays the whole log.
    await becomeProjector(runtime, group, pageSize);
    runtime.deps.waiters.notify();
  }
}
