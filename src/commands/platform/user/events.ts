// Events of a platform user: the account, its second factor, its trusted devices, and every sign-in attempt against it.
// `deviceId` on an attempt: it presented that trusted device's token and is counted on that device (absent: untrusted).

/** Challenge ids of codes given at a step-up (not a sign-in) start with this. */
export const STEP_UP_PREFIX = 'step-up:';

/** The second factor of an account: none, pending its first code, or confirmed. */
export type TotpStatus = 'none' | 'pending' | 'confirmed';

export type UserEvent =
  | { type: 'UserRegistered'; data: { userId: string; email: string; name: string; passwordHash: string; platformAdmin: boolean } }
  /**
   * A company invited a person with no account yet: no password until the activation token (SHA-256 kept) is used.
   * `companyId`: the company whose invitation created the account, the only one ever issued its activation token (absent on older events).
   */
  | {
      type: 'UserInvited';
      data: { userId: string; email: string; name: string; activationHash: string; activationExpiresAt: string; companyId?: string };
    }
  /** A new activation token replaces the previous one (which stops working). */
  | { type: 'ActivationIssued'; data: { activationHash: string; activationExpiresAt: string } }
  /** The invited person chose a password with the activation token; the token is spent. */
  | { type: 'UserActivated'; data: { passwordHash: string } }
  | { type: 'PasswordChanged'; data: { passwordHash: string } }
  /** The current password was right at a step-up (a password change): the failures counted since are cleared. */
  | { type: 'StepUpPasswordAccepted'; data: { at: string } }
  /** A TOTP secret (AES-256-GCM encrypted, never plain) was generated and waits for its first code. */
  | { type: 'TotpEnrollmentStarted'; data: { encryptedSecret: string } }
  /** The pending secret is now the user's second factor; timeStep is null when provisioned out of band (bootstrap). */
  | { type: 'TotpEnrollmentConfirmed'; data: { encryptedSecret: string; timeStep: number | null } }
  /** First factor accepted: a challenge for the second factor was issued (expiresAt: absent on events before the open-challenge cap). */
  | { type: 'LoginSucceeded'; data: { challengeId: string; expiresAt?: string; at?: string; deviceId?: string } }
  /** First factor accepted, but the most challenges a user may hold are open: none was issued. */
  | { type: 'ChallengeWithheld'; data: { at: string; retryAfterSeconds: number; deviceId?: string } }
  /** A password is about to be checked: counted as a failure until it succeeds, so a burst cannot outrun the throttle. */
  | { type: 'LoginAttemptReserved'; data: { consecutiveFailures: number; at: string; deviceId?: string } }
  /** A code is about to be checked: it counts against the user's window unless it is accepted. */
  | { type: 'TotpAttemptReserved'; data: { challengeId: string; at: string; deviceId?: string } }
  | { type: 'LoginFailed'; data: { reason: 'wrong-password' | 'inactive'; consecutiveFailures: number; at: string; deviceId?: string } }
  /** A code was accepted; its time step can never be accepted again for this user. */
  | { type: 'TotpCodeAccepted'; data: { challengeId: string; timeStep: number } }
  /** `reserved`: the attempt was already counted by its TotpAttemptReserved (absent on events written before reservations). */
  | { type: 'TotpCodeRejected'; data: { challengeId: string; at: string; reserved?: boolean } }
  /** A valid code for a time step already used (or older): refused as a replay. */
  | { type: 'TotpReplayRefused'; data: { challengeId: string; timeStep: number } }
  /** A completed sign-in trusts its client: the device token's SHA-256, replacing the token that client presented. */
  | { type: 'DeviceTrusted'; data: { deviceId: string; tokenHash: string; at: string; expiresAt: string; replaces?: string } }
  /** A trusted device is forgotten: its token expired, or newer devices pushed it past the per-user bound. */
  | { type: 'DeviceRetired'; data: { deviceId: string; reason: 'expired' | 'limit' } }
  /** The second factor is gone, and with it every trusted device. */
  | { type: 'TwoFactorReset'; data: Record<string, never> }
  | { type: 'UserDeactivated'; data: Record<string, never> };

export type UserEventType = UserEvent['type'];

export const USER_EVENT_TYPES: readonly UserEventType[] = [
  'UserRegistered',
  'UserInvited',
  'ActivationIssued',
  'UserActivated',
  'PasswordChanged',
  'StepUpPasswordAccepted',
  'TotpEnrollmentStarted',
  'TotpEnrollmentConfirmed',
  'LoginSucceeded',
  'ChallengeWithheld',
  'LoginAttemptReserved',
  'TotpAttemptReserved',
  'LoginFailed',
  'TotpCodeAccepted',
  'TotpCodeRejected',
  'TotpReplayRefused',
  'DeviceTrusted',
  'DeviceRetired',
  'TwoFactorReset',
  'UserDeactivated',
];
