// Platform bootstrap (stream `platform.bootstrap-platform`): one claim, one completion.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import type { BootstrapEvent } from './events.js';

export interface BootstrapState {
  claim: { adminUserId: string; companyId: string; adminEmail: string; generatedCredentials: boolean } | null;
  completed: boolean;
}

export type BootstrapCommand =
  | CommandEnvelope<'ClaimBootstrap', { adminUserId: string; companyId: string; adminEmail: string; generatedCredentials: boolean }>
  | CommandEnvelope<'CompleteBootstrap', Record<string, never>>;

export const BOOTSTRAP_ID = 'platform';

export const bootstrapDecider: Decider<BootstrapCommand, BootstrapEvent, BootstrapState> = {
  category: 'bootstrap',
  initialState: { claim: null, completed: false },
  evolve(s, e) {
    return e.type === 'BootstrapClaimed' ? { ...s, claim: { ...e.data } } : { ...s, completed: true };
  },
  decide(cmd, s) {
    switch (cmd.type) {
      case 'ClaimBootstrap':
        if (s.claim) throw rule('bootstrap-claimed', 'the platform was already bootstrapped');
        return [{ type: 'BootstrapClaimed', data: { ...cmd.data } }];
      case 'CompleteBootstrap':
        if (!s.claim) throw rule('bootstrap-not-claimed', 'nothing to complete');
        if (s.completed) return [];
        return [{ type: 'BootstrapCompleted', data: { adminUserId: s.claim.adminUserId, companyId: s.claim.companyId } }];
    }
  },
};
