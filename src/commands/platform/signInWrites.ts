// The two sign-in steps: password -> challenge (with TOTP enrollment on first sign-in), then
// challenge + code -> session and tokens. Every attempt, good or bad, is an event.
import { randomUUID } from 'node:crypto';
import type { AppServices } from '../../services.js';
import { handleCommand, loadAggregate, type CommandContext } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { tooManyRequests } from '../../problems.js';
import { userDecider, type UserCommand, type UserState } from './user/decider.js';
import { loginRetryAfterSeconds } from './user/signInThrottle.js';
import { unknownLoginDecider, unknownLoginId } from './unknownLogin/decider.js';
import { normalizeEmail } from './emailGuard/decider.js';
import { challengeDecider, challengeUsability } from './challenge/decider.js';
import { sessionDecider } from './session/decider.js';
import { SESSIONS, USERS, type UserDoc } from '../../projections/platform/platformReadModels.js';
import { authRuntime, type AuthRuntime } from '../../auth/authRuntime.js';
import { invalidChallenge, invalidCode, invalidCredentials } from './signInProblems.js';
import { verifyPassword } from '../../auth/passwords.js';
import { checkTotpCode, newTotpSecret, otpauthUri, qrPngDataUri } from '../../auth/totp.js';
import { newRefreshToken, randomToken, sha256Hex, signAccessToken } from '../../auth/tokens.js';
import { awaitPlatformReadModels, platformContext, type PlatformCaller } from './platformWrites.js';

export interface Client {
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
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

const LOGIN_POLICY = {
  failuresBeforeDelay: LIMITS.throttling.login.accountFailuresBeforeDelay,
  maxFailuresPerHour: LIMITS.throttling.login.accountMaxFailuresPerHour,
  longestDelaySeconds: LIMITS.throttling.login.accountLongestDelaySeconds,
};
const CODE_POLICY = {
  userFailuresPerWindow: LIMITS.throttling.verify2fa.userFailuresPerWindow,
  windowSeconds: LIMITS.throttling.verify2fa.windowSeconds,
};

const caller = (client: Client, actor: string, sessionId: string | null = null): PlatformCaller => ({ actor, sessionId, ...client });

async function failUnknownAccount(services: AppServices, email: string, password: string, client: Client, at: string): Promise<never> {
  const id = unknownLoginId(email);
  const history = await loadAggregate(services.events, unknownLoginDecider, streamName(PLATFORM_TENANT, unknownLoginDecider.category, id));
  const wait = loginRetryAfterSeconds(history.state, at, LOGIN_POLICY);
  if (wait > 0) throw tooManyRequests(wait, 'Too many failed sign-ins; retry later');
  await verifyPassword(null, password); // same work as for a real account: timing tells nothing
  await handleCommand(
    services.events,
    unknownLoginDecider,
    { type: 'RecordUnknownAccountLoginFailure', aggregateId: id, data: { email } },
    platformContext(services, caller(client, 'anonymous')),
  );
  throw invalidCredentials();
}

async function enrollmentFor(services: AppServices, runtime: AuthRuntime, user: UserState, client: Client): Promise<Enrollment> {
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

type ReserveCommand = Omit<Extract<UserCommand, { type: 'ReserveLoginAttempt' | 'ReserveTotpAttempt' }>, 'at' | 'actor' | 'tenantId'>;

/** Reserves a sign-in attempt; a throttled one answers 429 with the wait its decider computed. */
async function reserve(services: AppServices, command: ReserveCommand, ctx: CommandContext): Promise<{ state: UserState }> {
  try {
    return await handleCommand(services.events, userDecider, command, ctx);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'sign-in-throttled') {
      throw tooManyRequests(Number(err.details?.retryAfterSeconds ?? 1), `${err.message[0]!.toUpperCase()}${err.message.slice(1)}`);
    }
    throw err;
  }
}

export async function login(
  services: AppServices,
  input: { email: string; password: string },
  client: Client,
): Promise<{ challenge: string; expiresIn: number; enrollment?: Enrollment }> {
  const runtime = await authRuntime(services);
  const now = services.now();
  const at = now.toISOString();
  const ipWait = runtime.loginPerIp.hit(client.ip ?? 'unknown', now.getTime());
  if (ipWait > 0) throw tooManyRequests(ipWait, 'Too many sign-in attempts from this address; retry later');

  const email = normalizeEmail(input.email);
  const doc = await services.projections.collection<UserDoc>(USERS.projection, USERS.collection).findOne(PLATFORM_DOCS, { email });
  if (!doc) return failUnknownAccount(services, email, input.password, client, at);

  // The attempt is counted on the user's stream before the password is checked: a burst cannot outrun the throttle.
  const { state: user } = await reserve(
    services,
    { type: 'ReserveLoginAttempt', aggregateId: doc.id, data: { policy: LOGIN_POLICY } },
    platformContext(services, caller(client, doc.id)),
  );
  const passwordOk = await verifyPassword(user.passwordHash, input.password);
  if (!passwordOk || !user.active) {
    const reason = passwordOk ? 'inactive' : 'wrong-password';
    await handleCommand(
      services.events,
      userDecider,
      { type: 'RecordLoginFailure', aggregateId: user.userId, data: { reason } },
      platformContext(services, caller(client, user.userId)),
    );
    throw invalidCredentials();
  }

  const enrollment = user.totp.status === 'confirmed' ? undefined : await enrollmentFor(services, runtime, user, client);
  const challenge = randomToken();
  const challengeId = sha256Hex(challenge);
  const ttl = LIMITS.challenge.ttlSeconds;
  const ctx = platformContext(services, caller(client, user.userId));
  await handleCommand(
    services.events,
    challengeDecider,
    {
      type: 'IssueChallenge',
      aggregateId: challengeId,
      data: {
        userId: user.userId,
        expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
        maxAttempts: LIMITS.challenge.maxCodeAttempts,
        enrollment: !!enrollment,
      },
    },
    ctx,
    { expectNew: true },
  );
  const done = await handleCommand(
    services.events,
    userDecider,
    { type: 'RecordLoginSuccess', aggregateId: user.userId, data: { challengeId } },
    ctx,
  );
  await awaitPlatformReadModels(services, done.position, [USERS.projection]);
  return { challenge, expiresIn: ttl, ...(enrollment ? { enrollment } : {}) };
}

async function recordWrongCode(services: AppServices, userId: string, challengeId: string, client: Client): Promise<never> {
  const ctx = platformContext(services, caller(client, userId));
  try {
    await handleCommand(services.events, challengeDecider, { type: 'RecordChallengeCodeFailure', aggregateId: challengeId, data: {} }, ctx);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err; // the challenge died meanwhile: nothing more to count on it
  }
  await handleCommand(services.events, userDecider, { type: 'RecordTotpCodeFailure', aggregateId: userId, data: { challengeId } }, ctx);
  throw invalidCode();
}

export async function verifySecondFactor(
  services: AppServices,
  input: { challenge: string; code: string },
  client: Client,
): Promise<TokenPair> {
  const runtime = await authRuntime(services);
  const now = services.now();
  const at = now.toISOString();
  const ipWait = runtime.verifyPerIp.hit(client.ip ?? 'unknown', now.getTime());
  if (ipWait > 0) throw tooManyRequests(ipWait, 'Too many codes from this address; retry later');
  const challengeId = sha256Hex(input.challenge);
  const { state: challenge } = await loadAggregate(
    services.events,
    challengeDecider,
    streamName(PLATFORM_TENANT, challengeDecider.category, challengeId),
  );
  if (challengeUsability(challenge, at) !== 'usable') throw invalidChallenge();

  // Both limits are reserved before the code is evaluated: the challenge's attempt, then the user's window.
  const reserveCtx = platformContext(services, caller(client, challenge.userId));
  await handleCommand(
    services.events,
    challengeDecider,
    { type: 'ReserveCodeAttempt', aggregateId: challengeId, data: {} },
    reserveCtx,
  ).catch((err: unknown) => {
    throw err instanceof DomainError ? invalidChallenge() : err;
  });
  const { state: user } = await reserve(
    services,
    { type: 'ReserveTotpAttempt', aggregateId: challenge.userId, data: { challengeId, policy: CODE_POLICY } },
    reserveCtx,
  );
  if (!user.active || !user.totp.encryptedSecret) throw invalidChallenge();

  const check = await checkTotpCode(runtime.totpSecrets.open(user.totp.encryptedSecret), input.code, now, user.totp.lastTimeStep);
  const ctx = platformContext(services, caller(client, user.userId));
  const step = check.valid ? check.timeStep : check.replayOf;
  if (step === undefined) return recordWrongCode(services, user.userId, challengeId, client);
  // The user stream decides atomically whether this step is fresh; a lost race turns into a replay.
  const decided = await handleCommand(
    services.events,
    userDecider,
    { type: 'AcceptTotpCode', aggregateId: user.userId, data: { challengeId, timeStep: step } },
    ctx,
  );
  if (!decided.events.some((e) => e.type === 'TotpCodeAccepted')) return recordWrongCode(services, user.userId, challengeId, client);

  const sessionId = randomUUID();
  const refreshToken = newRefreshToken(sessionId);
  const sessionCtx = platformContext(services, caller(client, user.userId, sessionId));
  try {
    await handleCommand(
      services.events,
      challengeDecider,
      { type: 'ConsumeChallenge', aggregateId: challengeId, data: { sessionId } },
      sessionCtx,
    );
  } catch (err) {
    if (err instanceof DomainError) throw invalidChallenge(); // consumed or expired by a concurrent request
    throw err;
  }
  const started = await handleCommand(
    services.events,
    sessionDecider,
    {
      type: 'StartSession',
      aggregateId: sessionId,
      data: {
        userId: user.userId,
        email: user.email,
        platformAdmin: user.platformAdmin,
        challengeId,
        refreshTokenHash: sha256Hex(refreshToken),
        startedAt: at,
        expiresAt: new Date(now.getTime() + LIMITS.session.absoluteSeconds * 1000).toISOString(),
        idleTimeoutSeconds: LIMITS.session.idleSeconds,
      },
    },
    sessionCtx,
    { expectNew: true },
  );
  await awaitPlatformReadModels(services, started.position, [SESSIONS.projection]);
  const access = signAccessToken(runtime.jwt, user.userId, sessionId, now);
  return { accessToken: access.token, tokenType: 'Bearer', expiresIn: access.expiresIn, refreshToken };
}
