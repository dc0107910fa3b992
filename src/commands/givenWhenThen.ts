// Given events / when command / then events (or then error): how decider tests read.
import assert from 'node:assert/strict';
import type { CommandEnvelope, DecidedEvent, Decider } from './decider.js';
import { DomainError } from './decider.js';
import { assertFoldsFromAnySnapshot } from './snapshotFoldCheck.js';

export interface Scenario<C extends CommandEnvelope, E extends DecidedEvent> {
  when(command: C): {
    then(...expected: E[]): void;
    thenError(code: string, check?: (error: DomainError) => void): void;
    /** The decided events, for assertions on parts of them. */
    events(): E[];
  };
}

export function scenario<C extends CommandEnvelope, E extends DecidedEvent, S>(decider: Decider<C, E, S>) {
  return (...history: E[]): Scenario<C, E> => ({
    when(command) {
      assertFoldsFromAnySnapshot(decider, history);
      const decide = () =>
        decider.decide(
          command,
          history.reduce((state, event) => decider.evolve(state, event), decider.initialState),
        );
      return {
        then: (...expected) => assert.deepEqual(decide(), expected),
        thenError(code, check) {
          assert.throws(decide, (err: unknown) => {
            assert.ok(err instanceof DomainError, `expected a DomainError, got ${String(err)}`);
            assert.equal(err.code, code);
            check?.(err);
            return true;
          });
        },
        events: decide,
      };
    },
  });
}

/** Field names of a `validation-failed` error, for asserting which fields were refused. */
export function failedFields(error: DomainError): string[] {
  const errors = (error.details?.errors ?? []) as { field: string }[];
  return errors.map((e) => e.field);
}
