// Every decider test's history also proves its state survives a snapshot: resumed from a stored (JSON) snapshot taken
// after any of its events, the fold ends exactly where the whole fold does (loads start from snapshots by default).
import assert from 'node:assert/strict';
import type { CommandEnvelope, DecidedEvent, Decider } from './decider.js';
import { snapshotPolicyOf, storedSnapshotState } from './snapshots.js';

export function assertFoldsFromAnySnapshot<C extends CommandEnvelope, E extends DecidedEvent, S>(
  decider: Pick<Decider<C, E, S>, 'category' | 'initialState' | 'evolve' | 'snapshot'>,
  history: readonly E[],
): void {
  if (snapshotPolicyOf(decider) === null) return; // opted out: never loaded from a snapshot
  const fold = (from: S, events: readonly E[]): S => events.reduce((s, e) => decider.evolve(s, e), from);
  const whole = fold(decider.initialState, history);
  let prefix = decider.initialState;
  for (let cut = 0; cut <= history.length; cut++) {
    if (cut > 0) prefix = decider.evolve(prefix, history[cut - 1]!);
    const resumed = fold(storedSnapshotState(prefix), history.slice(cut));
    assert.deepEqual(resumed, whole, `${decider.category}: resumed from a snapshot after ${cut} of ${history.length} events`);
  }
}
