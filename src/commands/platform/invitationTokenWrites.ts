// The pending invitation a one-time token opens, found from the token alone (it names the account, not the company): what
// the inviting company entered is all an activation may judge a password against before it tells the token apart.
// (Named *Writes: an orchestration file that loads aggregates for the activation write.)
import { loadAggregate } from '../handleCommand.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { companyDecider } from './company/decider.js';
import { offerUsable } from './company/membershipOffers.js';
import type { PlatformFacts } from './platformFacts.js';
import type { PlatformServices } from './platformWrites.js';

/** The companies offering the account a membership (eventual, platformMemberships); each offer is folded (strong). */
export type InvitationTokenFacts = Pick<PlatformFacts, 'pendingOffersOf'>;

export interface OpenedInvitation {
  companyId: string;
  /** The name and e-mail the inviting company entered. */
  name: string;
  email: string;
}

/** The account's pending membership whose token is `presentedHash` (unexpired), or null. */
export async function invitationOpenedBy(
  services: PlatformServices<InvitationTokenFacts>,
  userId: string,
  presentedHash: string,
  at: string,
): Promise<OpenedInvitation | null> {
  for (const companyId of await services.platformFacts.pendingOffersOf(userId)) {
    const { state } = await loadAggregate(services.events, companyDecider, streamName(PLATFORM_TENANT, companyDecider.category, companyId));
    if (!offerUsable(state, userId, presentedHash, at)) continue;
    const offer = state.offers[userId]!;
    return { companyId, name: offer.name, email: offer.email };
  }
  return null;
}
