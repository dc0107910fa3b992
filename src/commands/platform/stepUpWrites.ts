// A step-up: a fresh authenticator code from a signed-in person before a sensitive write (changing a password,
// signing a clinical record). Counted in the same window as sign-in codes, and spent like them: a code is used once.
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError, notFound } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { checkTotpCode } from '../../auth/totp.js';
import { authRuntime } from '../../auth/authRuntime.js';
import { userDecider, type UserState } from './user/decider.js';
import { platformContext, type PlatformCaller, type PlatformServices } from './platformWrites.js';
import { newId } from '../eventIds.js';
import { throttledAs429 } from './signInProblems.js';
import { CODE_POLICY } from './secondFactorWrites.js';
import { STEP_UP_PREFIX } from './user/events.js';

const wrongField = (field: string, message: string): DomainError =>
  new DomainError('validation-failed', `${field}: ${message}`, 422, { errors: [{ field, message }] });

/** A fresh authenticator code at a step-up: counted in the same window as sign-in codes, and spent like them. */
export async function checkStepUpCode(services: PlatformServices, user: UserState, code: string, caller: PlatformCaller): Promise<void> {
  if (user.totp.status !== 'confirmed' || !user.totp.encryptedSecret)
    throw new DomainError('totp-not-enrolled', 'the user has no second factor', 409);
  const ctx = platformContext(services, caller);
  const challengeId = `${STEP_UP_PREFIX}${newId()}`;
  await throttledAs429(
    handleCommand(
      services.events,
      userDecider,
      { type: 'ReserveTotpAttempt', aggregateId: user.userId, data: { challengeId, policy: CODE_POLICY, deviceId: null } },
      ctx,
    ),
    caller.rateLimits,
  );
  const runtime = await authRuntime(services);
  const check = await checkTotpCode(runtime.totpSecrets.open(user.totp.encryptedSecret), code, services.now(), user.totp.lastTimeStep);
  const accepted =
    check.valid &&
    (
      await handleCommand(
        services.events,
        userDecider,
        { type: 'AcceptTotpCode', aggregateId: user.userId, data: { challengeId, timeStep: check.timeStep } },
        ctx,
      )
    ).events.some((e) => e.type === 'TotpCodeAccepted');
  if (!accepted) {
    await handleCommand(
      services.events,
      userDecider,
      { type: 'RecordTotpCodeFailure', aggregateId: user.userId, data: { challengeId } },
      ctx,
    );
    throw wrongField('code', 'is not the current code of your authenticator');
  }
}

/** The signed-in person's fresh code for a sensitive write; `field` names the request field that carried it. */
export async function confirmStepUp(services: PlatformServices, userId: string, code: string, caller: PlatformCaller): Promise<void> {
  const { state } = await loadAggregate(services.events, userDecider, streamName(PLATFORM_TENANT, userDecider.category, userId));
  if (!state.exists) throw notFound('user');
  await checkStepUpCode(services, state, code, caller);
}
