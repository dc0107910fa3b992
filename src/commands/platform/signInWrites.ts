// Sign-in, step 1: password -> challenge (with TOTP enrollment on first sign-in); step 2 is secondFactorWrites.ts.
// Every attempt, good or bad, is an event.
import { handleCommand } from '../handleCommand.js';
import { LIMITS } from '../../limits.js';
import { tooManyRequests } from '../../problems.js';
import { userDecider, type UserState } from './user/decider.js';
import { trustedDeviceOf } from './user/signInBuckets.js';
import { unknownLoginDecider, unknownLoginId } from './unknownLogin/decider.js';
import { normalizeEmail } from './emailGuard/decider.js';
import { challengeDecider } from './challenge/decider.js';
import { authRuntime, type AuthRuntime } from '../../auth/authRuntime.js';
import { ACCOUNT_POLICIES, invalidCredentials, throttledAs429 } from './signInProblems.js';
import { observeRateLimit, type RateLimitLog } from '../../rateLimits.js';
import { verifyPassword } from '../../auth/passwords.js';
import { newTotpSecret, otpauthUri, qrPngDataUri } from '../../auth/totp.js';
import { randomToken, sha256Hex } from '../../auth/tokens.js';
import { awaitPlatformReadModels, platformContext, type PlatformCaller, type PlatformServices } from './platformWrites.js';
import type { PlatformFacts } from './platformFacts.js';

/**
 * Sign-in's facts: the account an e-mail names (eventual, platformUsers) and the wait for the users model; the account
 * itself (password, throttles, second factor) is folded from its stream (strong) when the attempt is reserved.
 */
export type SignInFacts = Pick<PlatformFacts, 'userByEmail' | 'caughtUp'>;

export interface Client {
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
  /** The request's RateLimit log its throttles report into. */
  rateLimits?: RateLimitLog;
}

export interface Enrollment {
  secret: string;
  otpauthUri: string;
  qrPng: string;
}

export interface TokenPair {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  refreshToken: string;
}

/** A completed sign-in: the tokens, and the device token this client presents at its next login. */
export interface SignedIn extends TokenPair {
  deviceToken: string;
}

export const LOGIN_POLICY = {
  failuresBeforeDelay: LIMITS.throttling.login.accountFailuresBeforeDelay,
  maxFailuresPerHour: LIMITS.throttling.login.accountMaxFailuresPerHour,
  longestDelaySeconds: LIMITS.throttling.login.accountLongestDelaySeconds,
};
const maxOpenChallenges = LIMITS.challenge.maxOpenPerUser;

export const caller = (client: Client, actor: string, sessionId: string | null = null): PlatformCaller => ({ actor, sessionId, ...client });

async function failUnknownAccount(services: PlatformServices, email: string, password: string, client: Client): Promise<never> {
  // Counted before the dummy check, as an account's attempt is: a burst is answered exactly as for an account.
  await throttledAs429(
    handleCommand(
      services.events,
      unknownLoginDecider,
      { type: 'RecordUnknownAccountLoginFailure', aggregateId: unknownLoginId(email), data: { email, policy: LOGIN_POLICY } },
      platformContext(services, caller(client, 'anonymous')),
    ),
    client.rateLimits,
  );
  await verifyPassword(null, password); // same work as for a real account: timing tells nothing
  throw invalidCredentials();
}

async function enrollmentFor(services: PlatformServices, runtime: AuthRuntime, user: UserState, client: Client): Promise<Enrollment> {
  let sealed = user.totp.encryptedSecret;
  if (user.totp.status === 'none' || !sealed) {
    const result = await handleCommand(
      services.events,
      userDecider,
      { type: 'StartTotpEnrollment', aggregateId: user.userId, data: { encryptedSecret: runtime.totpSecrets.seal(newTotpSecret()) } },
      platformContext(services, caller(client, user.userId)),
    );
    // A concurrent login may have started enrollment first: the stored secret is the one to show.
    sealed = result.state.totp.encryptedSecret!;
  }
  const secret = runtime.totpSecrets.open(sealed);
  const uri = otpauthUri(secret, user.email);
  return { secret, otpauthUri: uri, qrPng: await qrPngDataUri(uri) };
}

export async function login(
  services: PlatformServices<SignInFacts>,
  input: { email: string; password: string; deviceToken?: string },
  client: Client,
): Promise<{ challenge: string; expiresIn: number; enrollment?: Enrollment }> {
  const runtime = await authRuntime(services);
  const now = services.now();
  const at = now.toISOString();
  const ipWait = runtime.loginPerIp.hit(client.ip ?? 'unknown', now.getTime(), client.rateLimits);
  if (ipWait > 0) throw tooManyRequests(ipWait, 'Too many sign-in attempts from this address; retry later');

  const email = normalizeEmail(input.email);
  const accountId = await services.platformFacts.userByEmail(email);
  if (!accountId) return failUnknownAccount(services, email, input.password, client);

  // The attempt is counted on the user's stream before the password is checked: a burst cannot outrun the throttle.
  // A valid device token counts it on that device, so failures that came without the token do not hold it.
  const deviceTokenHash = input.deviceToken ? sha256Hex(input.deviceToken) : null;
  const { state: user } = await throttledAs429(
    handleCommand(
      services.events,
      userDecider,
      { type: 'ReserveLoginAttempt', aggregateId: accountId, data: { policy: LOGIN_POLICY, deviceTokenHash, maxOpenChallenges } },
      platformContext(services, caller(client, accountId)),
    ),
    client.rateLimits,
  );
  const deviceId = trustedDeviceOf(user, deviceTokenHash, at)?.deviceId ?? null;
  // An invited account has no password yet: checked against the dummy hash, so it answers like any wrong password.
  const passwordOk = await verifyPassword(user.passwordHash || null, input.password);
  if (!passwordOk || !user.active) {
    const reason = passwordOk ? 'inactive' : 'wrong-password';
    await handleCommand(
      services.events,
      userDecider,
      { type: 'RecordLoginFailure', aggregateId: user.userId, data: { reason, deviceId } },
      platformContext(services, caller(client, user.userId)),
    );
    throw invalidCredentials();
  }

  const enrollment = user.totp.status === 'confirmed' ? undefined : await enrollmentFor(services, runtime, user, client);
  const challenge = randomToken();
  const challengeId = sha256Hex(challenge);
  const ttl = LIMITS.challenge.ttlSeconds;
  const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
  const ctx = platformContext(services, caller(client, user.userId));
  // The user's stream counts the challenge first (at most maxOpenPerUser open), then the challenge exists.
  const counted = await handleCommand(
    services.events,
    userDecider,
    { type: 'RecordLoginSuccess', aggregateId: user.userId, data: { challengeId, expiresAt, deviceId, maxOpenChallenges } },
    ctx,
  );
  const withheld = counted.events.find((e) => e.type === 'ChallengeWithheld');
  if (withheld) {
    const { retryAfterSeconds } = withheld.data as { retryAfterSeconds: number };
    observeRateLimit(client.rateLimits, ACCOUNT_POLICIES.openChallenges, 0, retryAfterSeconds);
    throw tooManyRequests(retryAfterSeconds, 'Too many sign-in challenges are open; use one or retry later');
  }
  const issued = await handleCommand(
    services.events,
    challengeDecider,
    {
      type: 'IssueChallenge',
      aggregateId: challengeId,
      data: { userId: user.userId, expiresAt, maxAttempts: LIMITS.challenge.maxCodeAttempts, enrollment: !!enrollment, deviceId },
    },
    ctx,
    { expectNew: true },
  );
  await awaitPlatformReadModels(services, issued.position, ['users']);
  return { challenge, expiresIn: ttl, ...(enrollment ? { enrollment } : {}) };
}
