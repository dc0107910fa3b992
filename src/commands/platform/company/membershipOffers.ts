// Pending memberships of a company: offered by an invitation, they grant nothing until the invited person accepts one
// with its one-time token (signed in, or by activating the account the invitation created); declined or withdrawn before.
import { timingSafeEqual } from 'node:crypto';
import type { CommandEnvelope } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import type { CompanyEvent } from './events.js';

export interface MembershipOffer {
  roles: string[];
  /** What the inviting company entered: all it ever sees of the person until they accept. */
  name: string;
  email: string;
  tokenHash: string;
  expiresAt: string;
}

export type OfferCommand =
  /** `replace`: a new token for the pending membership (the previous one stops working); otherwise a new invitation. */
  | CommandEnvelope<
      'OfferMembership',
      { userId: string; roles: string[]; name: string; email: string; tokenHash: string; expiresAt: string; replace: boolean }
    >
  | CommandEnvelope<'AcceptMembershipOffer', { userId: string; presentedHash: string }>
  | CommandEnvelope<'DeclineMembershipOffer', { userId: string }>;

interface OfferState {
  members: Record<string, string[]>;
  offers: Record<string, MembershipOffer>;
}

/** One answer for an unknown, spent, replaced or expired invitation token, and for another person's invitation. */
export const invitationInvalid = (): DomainError =>
  new DomainError('invitation-invalid', 'the invitation token is not valid (unknown, used, replaced or expired)', 400);

function sameHash(expected: string, presented: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether `presentedHash` opens the person's pending membership at `at`. */
export function offerUsable(s: OfferState, userId: string, presentedHash: string, at: string): boolean {
  const offer = s.offers[userId];
  return !!offer && sameHash(offer.tokenHash, presentedHash) && Date.parse(at) < Date.parse(offer.expiresAt);
}

/** `checkRoles` is the company's own role check. Someone already invited answers like a member, whether or not they accepted. */
export function decideOffer(cmd: OfferCommand, s: OfferState, checkRoles: (roles: string[]) => string[]): CompanyEvent[] {
  switch (cmd.type) {
    case 'OfferMembership': {
      const { replace, ...offer } = cmd.data;
      const pending = s.offers[offer.userId];
      if (replace && !pending) throw notFound('invitation');
      if (s.members[offer.userId] || (pending && !replace)) throw rule('already-member', 'the user is already a member of this company');
      return [{ type: 'MembershipOffered', data: { ...offer, roles: checkRoles(offer.roles) } }];
    }
    case 'AcceptMembershipOffer': {
      const { userId, presentedHash } = cmd.data;
      if (!offerUsable(s, userId, presentedHash, cmd.at)) throw invitationInvalid();
      return [{ type: 'MembershipGranted', data: { userId, roles: [...s.offers[userId]!.roles], viaInvitation: true } }];
    }
    case 'DeclineMembershipOffer':
      if (!s.offers[cmd.data.userId]) throw notFound('invitation');
      return [{ type: 'MembershipOfferDeclined', data: { userId: cmd.data.userId } }];
  }
}
