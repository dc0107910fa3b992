import { command, given, T0 } from '../deciderSpec.js';
import { unknownLoginDecider, type UnknownLoginCommand } from './decider.js';

describe('unknown-account login failures', () => {
  it('counts consecutive failures per e-mail', () => {
    const fail = command<UnknownLoginCommand>('RecordUnknownAccountLoginFailure', { email: 'Ghost@x.example' });
    given(unknownLoginDecider)
      .when(fail)
      .then({ type: 'UnknownAccountLoginFailed', data: { email: 'ghost@x.example', consecutiveFailures: 1, at: T0 } });
    given(unknownLoginDecider, { type: 'UnknownAccountLoginFailed', data: { email: 'ghost@x.example', consecutiveFailures: 1, at: T0 } })
      .when(fail)
      .then({ type: 'UnknownAccountLoginFailed', data: { email: 'ghost@x.example', consecutiveFailures: 2, at: T0 } });
  });
});
