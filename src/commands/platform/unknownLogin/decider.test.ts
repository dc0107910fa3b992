import { command, given, T0 } from '../deciderSpec.js';
import { unknownLoginDecider, type UnknownLoginCommand } from './decider.js';
import type { UnknownLoginEvent } from './events.js';

const policy = { failuresBeforeDelay: 2, maxFailuresPerHour: 100, longestDelaySeconds: 60 };
const failed = (n: number): UnknownLoginEvent => ({
  type: 'UnknownAccountLoginFailed',
  data: { email: 'ghost@x.example', consecutiveFailures: n, at: T0 },
});

describe('unknown-account login failures', () => {
  it('counts consecutive failures per e-mail', () => {
    const fail = command<UnknownLoginCommand>('RecordUnknownAccountLoginFailure', { email: 'Ghost@x.example', policy });
    given(unknownLoginDecider)
      .when(fail)
      .then({ type: 'UnknownAccountLoginFailed', data: { email: 'ghost@x.example', consecutiveFailures: 1, at: T0 } });
    given(unknownLoginDecider, { type: 'UnknownAccountLoginFailed', data: { email: 'ghost@x.example', consecutiveFailures: 1, at: T0 } })
      .when(fail)
      .then({ type: 'UnknownAccountLoginFailed', data: { email: 'ghost@x.example', consecutiveFailures: 2, at: T0 } });
  });

  it('refuses, before any password is checked, while the delay runs, as for an account', () => {
    const fail = command<UnknownLoginCommand>('RecordUnknownAccountLoginFailure', { email: 'ghost@x.example', policy });
    given(unknownLoginDecider, failed(1), failed(2)).when(fail).thenError('sign-in-throttled');
    given(unknownLoginDecider, failed(1), failed(2))
      .when({ ...fail, at: '2025-01-01T08:00:02.000Z' })
      .then({
        type: 'UnknownAccountLoginFailed',
        data: { email: 'ghost@x.example', consecutiveFailures: 3, at: '2025-01-01T08:00:02.000Z' },
      });
  });
});
