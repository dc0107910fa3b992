// The two-person identity check before a dialyzer's use (issue 21 item 14): each person confirms with their own
// authenticator code. A person counts only as an activated, active account, an active member of this company, with
// a staff record that may sign clinical records now; their codes are checked (and spent) only after the decider agreed.
// The membership and the staff record come from read models through injected loaders (src/facts/filtros-dialisis/).
import type { AppServices } from '../../services.js';
import { DomainError } from '../decider.js';
import { loadAggregate, type CommandContext } from '../handleCommand.js';
import { PLATFORM_TENANT, streamName, type EventStore } from '../../stores/eventStore.js';
import { userDecider, type UserState } from '../platform/user/decider.js';
import { checkStepUpCode } from '../platform/stepUpWrites.js';
import type { FactLoaders } from '../factLoaders.js';
import type { ConfirmerFacts } from './dialyzerEvents.js';

export interface IdentityConfirmation {
  userId: string;
  code: string;
}

const userOf = async (events: EventStore, userId: string): Promise<UserState> =>
  (await loadAggregate(events, userDecider, streamName(PLATFORM_TENANT, userDecider.category, userId))).state;

/** An invited account never activated has no password and no second factor: it confirms nothing. */
const activated = (user: UserState): boolean =>
  user.exists && user.active && user.passwordHash !== '' && user.activation === null && user.totp.status === 'confirmed';

/** What the decider needs of each person: may they confirm a patient's identity in this company now. */
export async function confirmerFacts(
  deps: { events: EventStore; facts: Pick<FactLoaders, 'isMember' | 'confirmers'> },
  ctx: CommandContext,
  userIds: string[],
  at: string,
): Promise<ConfirmerFacts> {
  const facts: ConfirmerFacts = {};
  for (const userId of new Set(userIds)) {
    const [user, member, maySign] = await Promise.all([
      userOf(deps.events, userId),
      deps.facts.isMember(userId, ctx.tenantId),
      deps.facts.confirmers.maySignClinicalRecords(ctx.tenantId, userId, at),
    ]);
    facts[userId] = activated(user) && member && maySign;
  }
  return facts;
}

/** Each person's fresh code, spent like a step-up; a wrong one is a 422 naming that person's code. */
export async function spendConfirmationCodes(
  services: AppServices,
  ctx: CommandContext,
  confirmations: IdentityConfirmation[],
): Promise<void> {
  for (const [i, { userId, code }] of confirmations.entries()) {
    try {
      await checkStepUpCode(services, await userOf(services.events, userId), code, { ...ctx, actor: ctx.actor });
    } catch (err) {
      if (!(err instanceof DomainError) || err.status !== 422) throw err;
      const field = `identityConfirmations/${i}/code`;
      const message = "is not this person's current authenticator code";
      throw new DomainError('validation-failed', `${field}: ${message}`, 422, { errors: [{ field, message }] });
    }
  }
}
