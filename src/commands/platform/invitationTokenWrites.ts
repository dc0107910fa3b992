// The pending invitation a one-time token opens, found from the token alone (it names the account, not the company): what
// the inviting company entered is all an activation may judge a password against before it tells the token apart.
// (Named *Writes: an orchestration file that loads aggregates for the activation write.)
import type { AppServices } from '../../services.js';
import { loadAggregate } from '../handleCommand.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { platformCollections } from '../../queries/platform/memberships.js';
import { companyDecider } from './company/decider.js';
import { offerUsable } from './company/membershipOffers.js';

export interface OpenedInvitation {
  companyId: string;
  /** The name and e-mail the inviting company entered. */
  name: string;
  email: string;
}

/** The account's pending membership whose token is `presentedHash` (unexpired), or null. */
export async function invitationOpenedBy(
  services: AppServices,
  userId: string,
  presentedHash: string,
  at: string,
): Promise<OpenedInvitation | null> {
  const pending = await platformCollections(services).memberships.find(
    PLATFORM_DOCS,
    { userId, status: 'pending' },
    { limit: LIMITS.pagination.maxLimit },
  );
  for (const { companyId } of pending.items) {
    const { state } = await loadAggregate(services.events, companyDecider, streamName(PLATFORM_TENANT, companyDecider.category, companyId));
    if (!offerUsable(state, userId, presentedHash, at)) continue;
    const offer = state.offers[userId]!;
    return { companyId, name: offer.name, email: offer.email };
  }
  return null;
}
