// Events of a platform user: the account, its second factor, and every sign-in attempt against it.

export type UserEvent =
  | { type: 'UserRegistered'; data: { userId: string; email: string; name: string; passwordHash: string; platformAdmin: boolean } }
  /** A TOTP secret (AES-256-GCM encrypted, never plain) was generated and waits for its first code. */
  | { type: 'TotpEnrollmentStarted'; data: { encryptedSecret: string } }
  /** The pending secret is now the user's second factor; timeStep is null when provisioned out of band (bootstrap). */
  | { type: 'TotpEnrollmentConfirmed'; data: { encryptedSecret: string; timeStep: number | null } }
  /** First factor accepted: a challenge for the second factor was issued. */
  | { type: 'LoginSucceeded'; data: { challengeId: string } }
  /** A password is about to be checked: counted as a failure until it succeeds, so a burst cannot outrun the throttle. */
  | { type: 'LoginAttemptReserved'; data: { consecutiveFailures: number; at: string } }
  /** A code is about to be checked: it counts against the user's window unless it is accepted. */
  | { type: 'TotpAttemptReserved'; data: { challengeId: string; at: string } }
  | { type: 'LoginFailed'; data: { reason: 'wrong-password' | 'inactive'; consecutiveFailures: number; at: string } }
  /** A code was accepted; its time step can never be accepted again for this user. */
  | { type: 'TotpCodeAccepted'; data: { challengeId: string; timeStep: number } }
  /** `reserved`: the attempt was already counted by its TotpAttemptReserved (absent on events written before reservations). */
  | { type: 'TotpCodeRejected'; data: { challengeId: string; at: string; reserved?: boolean } }
  /** A valid code for a time step already used (or older): refused as a replay. */
  | { type: 'TotpReplayRefused'; data: { challengeId: string; timeStep: number } }
  | { type: 'TwoFactorReset'; data: Record<string, never> }
  | { type: 'UserDeactivated'; data: Record<string, never> };

export type UserEventType = UserEvent['type'];

export const USER_EVENT_TYPES: readonly UserEventType[] = [
  'UserRegistered',
  'TotpEnrollmentStarted',
  'TotpEnrollmentConfirmed',
  'LoginSucceeded',
  'LoginAttemptReserved',
  'TotpAttemptReserved',
  'LoginFailed',
  'TotpCodeAccepted',
  'TotpCodeRejected',
  'TotpReplayRefused',
  'TwoFactorReset',
  'UserDeactivated',
];
