// The pending memberships offered to a signed-in person: which companies invited them, with which roles, until when.
import type { ReadServices } from '../../readServices.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { platformCollections } from './memberships.js';

export interface PendingInvitation {
  companyId: string;
  companyName: string;
  roles: string[];
  invitedAt: string;
  expiresAt: string;
}

export async function pendingInvitations(services: ReadServices, userId: string): Promise<{ items: PendingInvitation[] }> {
  const models = platformCollections(services);
  const page = await models.memberships.find(PLATFORM_DOCS, { userId, status: 'pending' }, { limit: LIMITS.pagination.maxLimit });
  const items: PendingInvitation[] = [];
  for (const m of page.items) {
    const company = await models.companies.get(PLATFORM_DOCS, m.companyId);
    if (!company || !m.invited) continue;
    items.push({
      companyId: company.id,
      companyName: company.name,
      roles: [...m.roles].sort(),
      invitedAt: m.grantedAt,
      expiresAt: m.invited.expiresAt,
    });
  }
  items.sort((a, b) => a.invitedAt.localeCompare(b.invitedAt) || a.companyId.localeCompare(b.companyId));
  return { items };
}
