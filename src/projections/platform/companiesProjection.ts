// Companies (with their roles) and memberships per user: GET /tenants, selection and permissions.
import { applyTo, type Projection } from '../runner/projection.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import type { CompanyEvent } from '../../commands/platform/company/events.js';
import { aggregateIdOf, COMPANIES, MEMBERSHIPS, membershipId, type CompanyDoc, type MembershipDoc } from './platformReadModels.js';

export const companiesProjection: Projection = {
  name: COMPANIES.projection,
  version: 1,
  collections: {
    [COMPANIES.collection]: [],
    [MEMBERSHIPS.collection]: [{ keys: { userId: 1, active: 1 }, name: 'by_user' }],
  },
  eventTypes: ['CompanyRegistered', 'RoleDefined', 'MembershipGranted', 'MembershipChanged', 'MembershipRevoked'],
  async handle(event, tx) {
    const e = { type: event.type, data: event.data } as CompanyEvent;
    const companyId = aggregateIdOf(event);
    switch (e.type) {
      case 'CompanyRegistered':
        return applyTo<CompanyDoc>(tx, COMPANIES.collection, PLATFORM_DOCS, companyId, event, () => ({
          tenantId: PLATFORM_DOCS,
          id: companyId,
          name: e.data.name,
          legalName: e.data.legalName,
          taxId: e.data.taxId,
          registeredAt: event.metadata.occurredAt,
          roles: {},
        }));
      case 'RoleDefined':
        return applyTo<CompanyDoc>(tx, COMPANIES.collection, PLATFORM_DOCS, companyId, event, (doc) => {
          if (!doc) return null;
          const { code, ...role } = e.data;
          return { ...doc, roles: { ...doc.roles, [code]: role } };
        });
      case 'MembershipGranted':
      case 'MembershipChanged':
      case 'MembershipRevoked': {
        const { userId } = e.data;
        const roles = e.type === 'MembershipRevoked' ? [] : e.data.roles;
        return applyTo<MembershipDoc>(tx, MEMBERSHIPS.collection, PLATFORM_DOCS, membershipId(companyId, userId), event, () => ({
          tenantId: PLATFORM_DOCS,
          id: membershipId(companyId, userId),
          companyId,
          userId,
          roles,
          active: e.type !== 'MembershipRevoked',
        }));
      }
    }
  },
};
