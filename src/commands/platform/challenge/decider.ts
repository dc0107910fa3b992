// A challenge: single use, short-lived, and dead after a few wrong codes.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import type { ChallengeEvent } from './events.js';

export interface ChallengeState {
  exists: boolean;
  userId: string;
  expiresAt: string;
  maxAttempts: number;
  enrollment: boolean;
  /** The trusted device whose token the login presented (its attempts are counted on that device), or null. */
  deviceId: string | null;
  attempts: number;
  exhausted: boolean;
  consumed: boolean;
}

export const initialChallengeState: ChallengeState = {
  exists: false,
  userId: '',
  expiresAt: '',
  maxAttempts: 0,
  enrollment: false,
  deviceId: null,
  attempts: 0,
  exhausted: false,
  consumed: false,
};

export type ChallengeCommand =
  | CommandEnvelope<
      'IssueChallenge',
      { userId: string; expiresAt: string; maxAttempts: number; enrollment: boolean; deviceId: string | null }
    >
  | CommandEnvelope<'ReserveCodeAttempt', Record<string, never>>
  | CommandEnvelope<'RecordChallengeCodeFailure', Record<string, never>>
  | CommandEnvelope<'ConsumeChallenge', { sessionId: string }>;

export type ChallengeUsability = 'usable' | 'missing' | 'expired' | 'consumed' | 'exhausted';

export function challengeUsability(s: ChallengeState, at: string): ChallengeUsability {
  if (!s.exists) return 'missing';
  if (s.consumed) return 'consumed';
  if (s.exhausted) return 'exhausted';
  if (Date.parse(at) >= Date.parse(s.expiresAt)) return 'expired';
  return 'usable';
}

export function evolveChallenge(s: ChallengeState, e: ChallengeEvent): ChallengeState {
  switch (e.type) {
    case 'ChallengeIssued':
      return { ...s, exists: true, ...e.data };
    case 'ChallengeCodeAttemptReserved':
    case 'ChallengeCodeFailed':
      return { ...s, attempts: e.data.attempts };
    case 'ChallengeExhausted':
      return { ...s, exhausted: true };
    case 'ChallengeConsumed':
      return { ...s, consumed: true };
  }
}

function mustBeUsable(s: ChallengeState, at: string): void {
  const usability = challengeUsability(s, at);
  if (usability !== 'usable') throw rule('challenge-unusable', `the challenge is ${usability}`, { usability });
}

export function decideChallenge(cmd: ChallengeCommand, s: ChallengeState): ChallengeEvent[] {
  switch (cmd.type) {
    case 'IssueChallenge':
      if (s.exists) throw rule('challenge-exists', 'this challenge was already issued');
      return [{ type: 'ChallengeIssued', data: { ...cmd.data } }];
    case 'ReserveCodeAttempt':
      mustBeUsable(s, cmd.at);
      if (s.attempts >= s.maxAttempts) throw rule('challenge-unusable', 'the challenge has no attempt left', { usability: 'exhausted' });
      return [{ type: 'ChallengeCodeAttemptReserved', data: { attempts: s.attempts + 1 } }];
    case 'RecordChallengeCodeFailure': {
      // The attempt was counted when it was reserved; the last one allowed kills the challenge.
      mustBeUsable(s, cmd.at);
      const failed: ChallengeEvent = { type: 'ChallengeCodeFailed', data: { attempts: s.attempts } };
      return s.attempts >= s.maxAttempts ? [failed, { type: 'ChallengeExhausted', data: { attempts: s.attempts } }] : [failed];
    }
    case 'ConsumeChallenge':
      mustBeUsable(s, cmd.at);
      return [{ type: 'ChallengeConsumed', data: { sessionId: cmd.data.sessionId } }];
  }
}

export const challengeDecider: Decider<ChallengeCommand, ChallengeEvent, ChallengeState> = {
  category: 'challenge',
  initialState: initialChallengeState,
  evolve: evolveChallenge,
  decide: decideChallenge,
};
