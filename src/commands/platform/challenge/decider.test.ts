import assert from 'node:assert/strict';
import { command, given, T0 } from '../deciderSpec.js';
import { challengeDecider, challengeUsability, type ChallengeCommand } from './decider.js';
import type { ChallengeEvent } from './events.js';

const EXPIRES = '2025-01-01T08:05:00.000Z';
const cmd = (type: ChallengeCommand['type'], data: unknown, at = T0) => command<ChallengeCommand>(type, data as never, { at });
const issued: ChallengeEvent = {
  type: 'ChallengeIssued',
  data: { userId: 'u1', expiresAt: EXPIRES, maxAttempts: 5, enrollment: false, deviceId: null },
};
const failed = (attempts: number): ChallengeEvent => ({ type: 'ChallengeCodeFailed', data: { attempts } });

describe('challenge decider', () => {
  it('is issued once', () => {
    given(challengeDecider).when(cmd('IssueChallenge', issued.data)).then(issued);
    given(challengeDecider, issued).when(cmd('IssueChallenge', issued.data)).thenError('challenge-exists');
  });

  it('is consumed once', () => {
    const consumed: ChallengeEvent = { type: 'ChallengeConsumed', data: { sessionId: 's1' } };
    given(challengeDecider, issued)
      .when(cmd('ConsumeChallenge', { sessionId: 's1' }))
      .then(consumed);
    given(challengeDecider, issued, consumed)
      .when(cmd('ConsumeChallenge', { sessionId: 's2' }))
      .thenError('challenge-unusable');
  });

  it('expires after its TTL', () => {
    given(challengeDecider, issued)
      .when(cmd('ConsumeChallenge', { sessionId: 's1' }, EXPIRES))
      .thenError('challenge-unusable');
    assert.equal(challengeUsability(given(challengeDecider, issued).state, EXPIRES), 'expired');
    assert.equal(challengeUsability(given(challengeDecider).state, T0), 'missing');
  });

  const reserved = (attempts: number) => ({ type: 'ChallengeCodeAttemptReserved' as const, data: { attempts } });

  it('counts an attempt when it is reserved, before the code is checked, and refuses a sixth', () => {
    given(challengeDecider, issued).when(cmd('ReserveCodeAttempt', {})).then(reserved(1));
    given(challengeDecider, issued, reserved(1), reserved(2), reserved(3), reserved(4))
      .when(cmd('ReserveCodeAttempt', {}))
      .then(reserved(5));
    given(challengeDecider, issued, reserved(1), reserved(2), reserved(3), reserved(4), reserved(5))
      .when(cmd('ReserveCodeAttempt', {}))
      .thenError('challenge-unusable');
  });

  it('dies with the fifth wrong code', () => {
    given(challengeDecider, issued, failed(1), failed(2), reserved(3)).when(cmd('RecordChallengeCodeFailure', {})).then(failed(3));
    given(challengeDecider, issued, failed(1), failed(2), failed(3), failed(4), reserved(5))
      .when(cmd('RecordChallengeCodeFailure', {}))
      .then(failed(5), { type: 'ChallengeExhausted', data: { attempts: 5 } });
    const dead = given(challengeDecider, issued, failed(1), failed(2), failed(3), failed(4), failed(5), {
      type: 'ChallengeExhausted',
      data: { attempts: 5 },
    });
    assert.equal(challengeUsability(dead.state, T0), 'exhausted');
    dead.when(cmd('ConsumeChallenge', { sessionId: 's1' })).thenError('challenge-unusable');
  });
});
