// given/when/then for pure deciders: the test states history, the command, and the expected outcome.
import assert from 'node:assert/strict';
import type { CommandEnvelope, DecidedEvent, Decider } from '../decider.js';
import { DomainError } from '../decider.js';
import { assertFoldsFromAnySnapshot } from '../snapshotFoldCheck.js';

export const T0 = '2025-01-01T08:00:00.000Z';

/** Builds a command envelope with fixed defaults so tests name only what matters. */
export function command<C extends CommandEnvelope>(type: C['type'], data: C['data'], over: Partial<CommandEnvelope> = {}): C {
  return { type, data, at: T0, actor: 'user-1', aggregateId: 'agg-1', tenantId: 'platform', ...over } as C;
}

export function given<C extends CommandEnvelope, E extends DecidedEvent, S>(decider: Decider<C, E, S>, ...history: E[]) {
  const state = history.reduce((s, e) => decider.evolve(s, e), decider.initialState);
  assertFoldsFromAnySnapshot(decider, history);
  return {
    state,
    when(cmd: C) {
      const run = () => decider.decide(cmd, state);
      return {
        then(...expected: E[]): E[] {
          assert.deepEqual(run(), expected);
          return expected;
        },
        thenNothing(): void {
          assert.deepEqual(run(), []);
        },
        thenError(code: string): void {
          assert.throws(run, (err: unknown) => err instanceof DomainError && err.code === code);
        },
      };
    },
  };
}
