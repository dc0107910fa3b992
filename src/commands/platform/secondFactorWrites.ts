// Sign-in, step 2: challenge + code -> session, tokens and a device token. Every attempt, good or bad, is an event.
import { randomUUID } from 'node:crypto';
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { LIMITS } from '../../limits.js';
import { tooManyRequests } from '../../problems.js';
import { userDecider } from './user/decider.js';
import { challengeDecider, challengeUsability } from './challenge/decider.js';
import { sessionDecider } from './session/decider.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { invalidChallenge, invalidCode, throttledAs429 } from './signInProblems.js';
import { checkTotpCode } from '../../auth/totp.js';
import { newRefreshToken, randomToken, sha256Hex, signAccessToken } from '../../auth/tokens.js';
import { awaitPlatformReadModels, platformContext, type PlatformServices, type ReadYourWrites } from './platformWrites.js';
import { caller, type Client, type SignedIn } from './signInWrites.js';

export const CODE_POLICY = {
  userFailuresPerWindow: LIMITS.throttling.verify2fa.userFailuresPerWindow,
  windowSeconds: LIMITS.throttling.verify2fa.windowSeconds,
};

async function recordWrongCode(services: PlatformServices, userId: string, challengeId: string, client: Client): Promise<never> {
  const ctx = platformContext(services, caller(client, userId));
  try {
    await handleCommand(services.events, challengeDecider, { type: 'RecordChallengeCodeFailure', aggregateId: challengeId, data: {} }, ctx);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err; // the challenge died meanwhile: nothing more to count on it
  }
  await handleCommand(services.events, userDecider, { type: 'RecordTotpCodeFailure', aggregateId: userId, data: { challengeId } }, ctx);
  throw invalidCode();
}

/**
 * The second step's facts are all folded from streams (strong): the challenge, the user (secret, throttles, devices);
 * only the wait for the sessions model reads the read side.
 */
export async function verifySecondFactor(
  services: PlatformServices<ReadYourWrites>,
  input: { challenge: string; code: string },
  client: Client,
): Promise<SignedIn> {
  const runtime = await authRuntime(services);
  const now = services.now();
  const at = now.toISOString();
  const ipWait = runtime.verifyPerIp.hit(client.ip ?? 'unknown', now.getTime(), client.rateLimits);
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
  const { state: user } = await throttledAs429(
    handleCommand(
      services.events,
      userDecider,
      {
        type: 'ReserveTotpAttempt',
        aggregateId: challenge.userId,
        data: { challengeId, policy: CODE_POLICY, deviceId: challenge.deviceId },
      },
      reserveCtx,
    ),
    client.rateLimits,
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
  // The client that completed sign-in is trusted from now on; the device token it presented (if any) is replaced.
  const deviceToken = randomToken();
  await handleCommand(
    services.events,
    userDecider,
    {
      type: 'TrustDevice',
      aggregateId: user.userId,
      data: {
        deviceId: randomUUID(),
        tokenHash: sha256Hex(deviceToken),
        expiresAt: new Date(now.getTime() + LIMITS.deviceToken.ttlSeconds * 1000).toISOString(),
        replaces: challenge.deviceId,
        maxDevices: LIMITS.deviceToken.maxPerUser,
      },
    },
    sessionCtx,
  );
  await awaitPlatformReadModels(services, started.position, ['sessions']);
  const access = signAccessToken(runtime.jwt, user.userId, sessionId, now);
  return { accessToken: access.token, tokenType: 'Bearer', expiresIn: access.expiresIn, refreshToken, deviceToken };
}
