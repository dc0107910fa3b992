// Uniqueness of a location's registry code (RENIPRESS-like) within a company: one guard stream per (tenant,
// normalised code), `<tenant>.locationRegistryCode-<uuidv5>`. A claim appends with the revision the guard was read
// at, so of two concurrent claims exactly one wins; the orchestration releases what it claimed when its main write fails.
import type { CommandEnvelope, DecidedEvent, Decider } from '../decider.js';
import { rule } from '../decider.js';

export type RegistryCodeEvent =
  | DecidedEvent<'LocationRegistryCodeClaimed', { locationId: string; registryCode: string; claimedAt: string }>
  | DecidedEvent<'LocationRegistryCodeReleased', { locationId: string; reason?: 'orphaned-claim' }>;

/** What the caller found about the holder when a claim was refused: a location that never appeared loses it after the grace period. */
export interface RegistryHolderFacts {
  exists: boolean;
  graceSeconds: number;
}

export type RegistryCodeCommand =
  | CommandEnvelope<'ClaimRegistryCode', { locationId: string; registryCode: string; holder?: RegistryHolderFacts }>
  | CommandEnvelope<'ReleaseRegistryCode', { locationId: string }>;

export interface RegistryCodeState {
  holder: string | null;
  claimedAt: string | null;
}

/** Case, spaces, dots and dashes do not make two codes different: '0001-2345' = '00012345'. */
export const registryCodeKey = (code: string): string =>
  code
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s.\-/]/g, '');

export const registryCodeGuardDecider: Decider<RegistryCodeCommand, RegistryCodeEvent, RegistryCodeState> = {
  category: 'locationRegistryCode',
  initialState: { holder: null, claimedAt: null },
  evolve(state, event) {
    switch (event.type) {
      case 'LocationRegistryCodeClaimed':
        return { holder: event.data.locationId, claimedAt: event.data.claimedAt };
      case 'LocationRegistryCodeReleased':
        return state.holder === event.data.locationId ? { holder: null, claimedAt: null } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimRegistryCode': {
        const { locationId, registryCode, holder } = command.data;
        if (state.holder === locationId) return [];
        const claimed: RegistryCodeEvent = {
          type: 'LocationRegistryCodeClaimed',
          data: { locationId, registryCode, claimedAt: command.at },
        };
        if (state.holder === null) return [claimed];
        const claimedMs = state.claimedAt === null ? 0 : Date.parse(state.claimedAt);
        if (holder && !holder.exists && Date.parse(command.at) - claimedMs >= holder.graceSeconds * 1000) {
          return [{ type: 'LocationRegistryCodeReleased', data: { locationId: state.holder, reason: 'orphaned-claim' } }, claimed];
        }
        throw rule('duplicate-registry-code', 'another location of this company already has this registry code', {
          existingLocationId: state.holder,
        });
      }
      case 'ReleaseRegistryCode':
        return state.holder === command.data.locationId ? [{ type: 'LocationRegistryCodeReleased', data: command.data }] : [];
    }
  },
};
