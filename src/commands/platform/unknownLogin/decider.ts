// Failure history of one unknown e-mail (stream `platform.unknownLogin-<uuidv5(email)>`).
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import { uuidV5 } from '../../eventIds.js';
import { normalizeEmail } from '../emailGuard/decider.js';
import { loginRetryAfterSeconds, type LoginThrottlePolicy } from '../user/signInThrottle.js';
import type { UnknownLoginEvent } from './events.js';

export interface UnknownLoginState {
  consecutiveFailures: number;
  lastFailureAt: string | null;
}

/** Recorded before the (dummy) password check, like an account's reservation: a burst cannot outrun the throttle. */
export type UnknownLoginCommand = CommandEnvelope<'RecordUnknownAccountLoginFailure', { email: string; policy: LoginThrottlePolicy }>;

export function unknownLoginId(email: string): string {
  return uuidV5(`unknownLogin\u0000${normalizeEmail(email)}`);
}

export const unknownLoginDecider: Decider<UnknownLoginCommand, UnknownLoginEvent, UnknownLoginState> = {
  category: 'unknownLogin',
  initialState: { consecutiveFailures: 0, lastFailureAt: null },
  // Anyone can grow it by guessing at an address without an account: loaded from a snapshot.
  snapshot: { version: 1 },
  evolve: (_s, e) => ({ consecutiveFailures: e.data.consecutiveFailures, lastFailureAt: e.data.at }),
  decide: (cmd, s) => {
    const wait = loginRetryAfterSeconds(s, cmd.at, cmd.data.policy);
    if (wait > 0) throw rule('sign-in-throttled', 'too many failed sign-ins; retry later', { retryAfterSeconds: wait });
    return [
      {
        type: 'UnknownAccountLoginFailed',
        data: { email: normalizeEmail(cmd.data.email), consecutiveFailures: s.consecutiveFailures + 1, at: cmd.at },
      },
    ];
  },
};
