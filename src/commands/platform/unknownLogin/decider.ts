// Failure history of one unknown e-mail (stream `platform.unknownLogin-<uuidv5(email)>`).
import type { CommandEnvelope, Decider } from '../../decider.js';
import { uuidV5 } from '../../eventIds.js';
import { normalizeEmail } from '../emailGuard/decider.js';
import type { UnknownLoginEvent } from './events.js';

export interface UnknownLoginState {
  consecutiveFailures: number;
  lastFailureAt: string | null;
}

export type UnknownLoginCommand = CommandEnvelope<'RecordUnknownAccountLoginFailure', { email: string }>;

export function unknownLoginId(email: string): string {
  return uuidV5(`unknownLogin\u0000${normalizeEmail(email)}`);
}

export const unknownLoginDecider: Decider<UnknownLoginCommand, UnknownLoginEvent, UnknownLoginState> = {
  category: 'unknownLogin',
  initialState: { consecutiveFailures: 0, lastFailureAt: null },
  evolve: (_s, e) => ({ consecutiveFailures: e.data.consecutiveFailures, lastFailureAt: e.data.at }),
  decide: (cmd, s) => [
    {
      type: 'UnknownAccountLoginFailed',
      data: { email: normalizeEmail(cmd.data.email), consecutiveFailures: s.consecutiveFailures + 1, at: cmd.at },
    },
  ],
};
