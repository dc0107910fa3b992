// The people of a company as its administrators see them: roles, membership, account status, second factor, last sign-in;
// a person who has not accepted the company's invitation shows only what the company entered.
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { platformCollections } from '../platform/memberships.js';
import { membershipId, type MembershipDoc, type UserDoc } from '../../projections/platform/platformReadModels.js';
import { foldUser } from '../../projections/platform/usersProjection.js';
import { foldMembership } from '../../projections/platform/companiesProjection.js';
import { PLATFORM_TENANT, streamName, type RecordedEvent } from '../../stores/eventStore.js';
import { foldAt, type RecordAt, type RecordPoint } from '../recordModel.js';
import { occurredSince } from '../changedSince.js';

export type AccountStatus = 'invited' | 'active' | 'deactivated';

export interface CompanyUser {
  id: string;
  email: string;
  name: string;
  roles: string[];
  membership: 'active' | 'pending' | 'revoked';
  memberSince: string;
  account: AccountStatus;
  totpEnrolled: boolean;
  lastSignInAt: string | null;
}

export const accountStatusOf = (user: UserDoc): AccountStatus =>
  !user.active ? 'deactivated' : user.activated === false ? 'invited' : 'active';

function view(membership: MembershipDoc, user: UserDoc): CompanyUser {
  // Not accepted (yet): only what this company entered, the same whether or not the address already had an account.
  if (membership.invited) {
    return {
      id: user.id,
      email: membership.invited.email,
      name: membership.invited.name,
      roles: [...membership.roles].sort(),
      membership: membership.status === 'pending' ? 'pending' : 'revoked',
      memberSince: membership.grantedAt,
      account: 'invited',
      totpEnrolled: false,
      lastSignInAt: null,
    };
  }
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    roles: [...membership.roles].sort(),
    membership: membership.active ? 'active' : 'revoked',
    memberSince: membership.grantedAt ?? user.registeredAt,
    account: accountStatusOf(user),
    totpEnrolled: user.totpStatus === 'confirmed',
    lastSignInAt: user.lastSignInAt,
  };
}

export async function listCompanyUsers(
  scope: TenantScope,
  query: { membership?: 'active' | 'pending' | 'revoked'; limit: number; cursor?: string | null; updatedSince?: string },
): Promise<{ items: CompanyUser[]; nextCursor: string | null }> {
  const models = platformCollections(scope.services);
  const filter: Record<string, unknown> = { companyId: scope.auth.tenantId };
  if (query.membership) filter.status = query.membership;
  // A user of the list changed when either its membership or its account did (two documents): judged per page, so a
  // page with updatedSince may hold fewer than limit; the next nonempty one is looked for before answering.
  const since = occurredSince(query.updatedSince);
  let after = query.cursor ?? null;
  for (;;) {
    const page = await models.memberships.find(PLATFORM_DOCS, filter, { limit: query.limit, after });
    const users = await Promise.all(page.items.map((m) => models.users.get(PLATFORM_DOCS, m.userId)));
    const items = page.items.flatMap((m, i) => {
      const user = users[i];
      return user && (since(m._changedAt) || since(user._changedAt)) ? [view(m, user)] : [];
    });
    if (query.updatedSince === undefined || items.length > 0 || page.nextCursor === null) return { items, nextCursor: page.nextCursor };
    after = page.nextCursor;
  }
}

/** A user of this company (current or former member); anyone else is answered as if they did not exist. */
export async function companyUser(scope: TenantScope, userId: string): Promise<CompanyUser> {
  const models = platformCollections(scope.services);
  const membership = await models.memberships.get(PLATFORM_DOCS, membershipId(scope.auth.tenantId, userId));
  const user = membership ? await models.users.get(PLATFORM_DOCS, userId) : null;
  if (!membership || !user) throw notFoundProblem('No such user in the selected company');
  return view(membership, user);
}

/** A company's user as folded: the account and the membership (its versions: every event of either, in log order). */
type UserAt = { tenantId: string; id: string; revision: number; _position: number; user: UserDoc; membership: MembershipDoc };

/**
 * A user of this company as they were at an instant or version: their account's stream and the membership events of the
 * company's stream naming them, in log order, numbered as one record's versions. Never a member here: 404 like any other.
 */
export async function companyUserAt(scope: TenantScope, userId: string, point: RecordPoint): Promise<RecordAt<CompanyUser>> {
  const own = streamName(PLATFORM_TENANT, 'user', userId);
  const read = scope.services.events;
  const company = await read.readStream(streamName(PLATFORM_TENANT, 'company', scope.auth.tenantId));
  const merged = [...(await read.readStream(own)), ...company.filter((e) => (e.data as { userId?: string }).userId === userId)];
  merged.sort((a, b) => (a.position < b.position ? -1 : 1));
  // One record's versions: each event renumbered in log order, as if of the account's stream (the fold sees the original).
  const original = new Map(merged.map((e) => [e.position, e]));
  let user: UserDoc | null = null;
  let membership: MembershipDoc | null = null;
  // The fold keeps both halves between calls: the record begins once the account and its membership both exist.
  const fold = (doc: UserAt | null, e: RecordedEvent): UserAt | null => {
    const event = original.get(e.position)!;
    const [u, m] =
      event.streamName === own ? [foldUser(user, event) as UserDoc | null, membership] : [user, foldMembership(membership, event, userId)];
    if (u === user && m === membership) return doc;
    [user, membership] = [u, m];
    if (!user || !membership) return null;
    return { tenantId: scope.auth.tenantId, id: userId, revision: e.revision, _position: Number(e.position), user, membership };
  };
  const renumbered = merged.map((e, revision) => ({ ...e, streamName: own, revision }));
  const at = foldAt({ fold, notFound: 'User not found' }, renumbered, own, userId, point);
  return { ...at, event: original.get(at.event.position)!, doc: view(at.doc.membership, at.doc.user) };
}
