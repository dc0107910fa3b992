// The people of a company as its administrators see them: roles, membership, account status, second factor, last sign-in;
// a person who has not accepted the company's invitation shows only what the company entered.
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { platformCollections } from '../platform/memberships.js';
import { membershipId, type MembershipDoc, type UserDoc } from '../../projections/platform/platformReadModels.js';

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
  query: { membership?: 'active' | 'pending' | 'revoked'; limit: number; cursor?: string | null },
): Promise<{ items: CompanyUser[]; nextCursor: string | null }> {
  const models = platformCollections(scope.services);
  const filter: Record<string, unknown> = { companyId: scope.auth.tenantId };
  if (query.membership) filter.status = query.membership;
  const page = await models.memberships.find(PLATFORM_DOCS, filter, { limit: query.limit, after: query.cursor ?? null });
  const users = await Promise.all(page.items.map((m) => models.users.get(PLATFORM_DOCS, m.userId)));
  const items = page.items.flatMap((m, i) => (users[i] ? [view(m, users[i])] : []));
  return { items, nextCursor: page.nextCursor };
}

/** A user of this company (current or former member); anyone else is answered as if they did not exist. */
export async function companyUser(scope: TenantScope, userId: string): Promise<CompanyUser> {
  const models = platformCollections(scope.services);
  const membership = await models.memberships.get(PLATFORM_DOCS, membershipId(scope.auth.tenantId, userId));
  const user = membership ? await models.users.get(PLATFORM_DOCS, userId) : null;
  if (!membership || !user) throw notFoundProblem('No such user in the selected company');
  return view(membership, user);
}
