// A value unique within a company (a job position code, a staff document, a user linked to staff): one guard stream
// per (tenant, kind, normalised value), `<tenant>.<category>-<uuidv5>`. A claim appends with the revision the guard was
// read at, so of two concurrent claims exactly one wins; the holder's own stream is written after it.
import type { CommandEnvelope, DecidedEvent, Decider } from './decider.js';
import { rule } from './decider.js';

export type UniqueClaimEvent =
  | DecidedEvent<'UniqueValueClaimed', { holderId: string; value: string; claimedAt: string }>
  | DecidedEvent<'UniqueValueReleased', { holderId: string; reason?: 'orphaned-claim' }>;

/** What the caller found about a refused claim's holder: one whose stream does not exist lost the race to a crash. */
export interface ClaimHolderFacts {
  exists: boolean;
  graceSeconds: number;
}

export type UniqueClaimCommand =
  | CommandEnvelope<'ClaimUniqueValue', { holderId: string; value: string; holder?: ClaimHolderFacts }>
  | CommandEnvelope<'ReleaseUniqueValue', { holderId: string }>;

export interface UniqueClaimState {
  holder: string | null;
  claimedAt: string | null;
}

/** A claim whose holder never appeared and that is older than the grace period. */
function orphaned(state: UniqueClaimState, holder: ClaimHolderFacts, at: string): boolean {
  if (holder.exists) return false;
  const claimedMs = state.claimedAt === null ? 0 : Date.parse(state.claimedAt);
  return Date.parse(at) - claimedMs >= holder.graceSeconds * 1000;
}

/**
 * The guard of one kind of unique value. `duplicateCode` is the problem code of a refused claim (409); its details
 * name the current holder as `existingId`.
 */
export function uniqueClaimDecider(
  category: string,
  duplicateCode: string,
  message: string,
): Decider<UniqueClaimCommand, UniqueClaimEvent, UniqueClaimState> {
  return {
    category,
    initialState: { holder: null, claimedAt: null },
    evolve(state, event) {
      switch (event.type) {
        case 'UniqueValueClaimed':
          return { holder: event.data.holderId, claimedAt: event.data.claimedAt };
        case 'UniqueValueReleased':
          return state.holder === event.data.holderId ? { holder: null, claimedAt: null } : state;
      }
    },
    decide(command, state) {
      switch (command.type) {
        case 'ClaimUniqueValue': {
          const { holderId, value, holder } = command.data;
          if (state.holder === holderId) return []; // a retry of the same claim
          const claimed: UniqueClaimEvent = { type: 'UniqueValueClaimed', data: { holderId, value, claimedAt: command.at } };
          if (state.holder === null) return [claimed];
          if (holder && orphaned(state, holder, command.at)) {
            return [{ type: 'UniqueValueReleased', data: { holderId: state.holder, reason: 'orphaned-claim' } }, claimed];
          }
          throw rule(duplicateCode, message, { existingId: state.holder });
        }
        case 'ReleaseUniqueValue':
          return state.holder === command.data.holderId ? [{ type: 'UniqueValueReleased', data: command.data }] : [];
      }
    },
  };
}
