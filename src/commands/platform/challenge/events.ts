// Events of a sign-in challenge: the bridge between a correct password and the second factor.
// The stream id is the SHA-256 of the 256-bit challenge token: the token itself is never stored.

export type ChallengeEvent =
  /** deviceId: the trusted device the login presented (absent or null: none). */
  | {
      type: 'ChallengeIssued';
      data: { userId: string; expiresAt: string; maxAttempts: number; enrollment: boolean; deviceId?: string | null };
    }
  /** A code is about to be checked: counted before it is evaluated, so a burst cannot outrun the limit. */
  | { type: 'ChallengeCodeAttemptReserved'; data: { attempts: number } }
  | { type: 'ChallengeCodeFailed'; data: { attempts: number } }
  /** Too many wrong codes: the challenge is dead. */
  | { type: 'ChallengeExhausted'; data: { attempts: number } }
  | { type: 'ChallengeConsumed'; data: { sessionId: string } };

export const CHALLENGE_EVENT_TYPES: readonly ChallengeEvent['type'][] = [
  'ChallengeIssued',
  'ChallengeCodeAttemptReserved',
  'ChallengeCodeFailed',
  'ChallengeExhausted',
  'ChallengeConsumed',
];
