// Where a user's sign-in attempts are counted (OWASP's device-cookie pattern): attempts without a device token
// share one bucket, each trusted device has its own, so failures from elsewhere never hold a device that signed in.

export interface CodeAttempt {
  at: string;
  challengeId: string;
}

export interface OpenChallenge {
  challengeId: string;
  expiresAt: string;
}

export interface SignInBucket {
  consecutiveFailures: number;
  lastFailureAt: string | null;
  /** The latest code attempts that were not accepted (bounded), for the per-user code throttle. */
  recentCodeAttempts: CodeAttempt[];
  /** Challenges issued and not used; expired ones are dropped when the next one is issued. */
  openChallenges: OpenChallenge[];
}

export interface TrustedDevice {
  deviceId: string;
  /** SHA-256 of the device token: the token itself is never stored. */
  tokenHash: string;
  trustedAt: string;
  expiresAt: string;
  throttle: SignInBucket;
}

export interface SignInBuckets {
  /** Attempts that presented no valid device token. */
  untrusted: SignInBucket;
  devices: TrustedDevice[];
}

export const emptyBucket: SignInBucket = { consecutiveFailures: 0, lastFailureAt: null, recentCodeAttempts: [], openChallenges: [] };

const KEPT_CODE_ATTEMPTS = 32;

/** The device a presented token stands for, while it is trusted. */
export function trustedDeviceOf(s: SignInBuckets, tokenHash: string | null, at: string): TrustedDevice | undefined {
  if (!tokenHash) return undefined;
  return s.devices.find((d) => d.tokenHash === tokenHash && Date.parse(d.expiresAt) > Date.parse(at));
}

/** A device id still on record, else null (the attempt then counts as untrusted). */
export function knownDeviceId(s: SignInBuckets, deviceId: string | null | undefined): string | null {
  return deviceId && s.devices.some((d) => d.deviceId === deviceId) ? deviceId : null;
}

export function bucketOf(s: SignInBuckets, deviceId: string | null | undefined): SignInBucket {
  return s.devices.find((d) => d.deviceId === deviceId)?.throttle ?? s.untrusted;
}

export function withBucket<S extends SignInBuckets>(
  s: S,
  deviceId: string | null | undefined,
  change: (b: SignInBucket) => SignInBucket,
): S {
  if (!deviceId || !s.devices.some((d) => d.deviceId === deviceId)) return { ...s, untrusted: change(s.untrusted) };
  return { ...s, devices: s.devices.map((d) => (d.deviceId === deviceId ? { ...d, throttle: change(d.throttle) } : d)) };
}

export function withEveryBucket<S extends SignInBuckets>(s: S, change: (b: SignInBucket) => SignInBucket): S {
  return { ...s, untrusted: change(s.untrusted), devices: s.devices.map((d) => ({ ...d, throttle: change(d.throttle) })) };
}

export const addCodeAttempt = (b: SignInBucket, attempt: CodeAttempt): SignInBucket => ({
  ...b,
  recentCodeAttempts: [...b.recentCodeAttempts, attempt].slice(-KEPT_CODE_ATTEMPTS),
});

export const addOpenChallenge = (b: SignInBucket, challenge: OpenChallenge, at: string): SignInBucket => ({
  ...b,
  openChallenges: [...b.openChallenges.filter((c) => Date.parse(c.expiresAt) > Date.parse(at)), challenge],
});

/** A used challenge is no longer open, and its accepted attempt leaves the throttle window (the wrong ones stay). */
export function closeChallenge(b: SignInBucket, challengeId: string): SignInBucket {
  const last = b.recentCodeAttempts.findLastIndex((a) => a.challengeId === challengeId);
  return {
    ...b,
    recentCodeAttempts: last < 0 ? b.recentCodeAttempts : b.recentCodeAttempts.filter((_, i) => i !== last),
    openChallenges: b.openChallenges.filter((c) => c.challengeId !== challengeId),
  };
}
