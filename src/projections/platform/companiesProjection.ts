// Companies (profile, status, modules, custom roles) and memberships per user and per company: GET /tenants,
// selection, permissions on every request, GET /empresas and the Usuarios lists.
import { applyTo, type Projection } from '../runner/projection.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { COMPANY_EVENT_TYPES, type CompanyEvent } from '../../commands/platform/company/events.js';
import { OPTIONAL_MODULES } from '../../commands/platform/company/profile.js';
import { aggregateIdOf, COMPANIES, MEMBERSHIPS, membershipId, type CompanyDoc, type MembershipDoc } from './platformReadModels.js';

type CompanyFold = Omit<CompanyDoc, '_position'>;

function foldCompany(doc: CompanyDoc | null, e: CompanyEvent, companyId: string, at: string): CompanyFold | null {
  if (e.type === 'CompanyRegistered') {
    return {
      tenantId: PLATFORM_DOCS,
      id: companyId,
      name: e.data.name,
      legalName: e.data.legalName,
      taxId: e.data.taxId,
      registeredAt: at,
      status: 'active',
      profile: e.data.profile ?? {},
      modules: e.data.modules ?? [...OPTIONAL_MODULES],
      roles: {},
      revision: 0,
      suspendedAt: null,
      suspensionReason: null,
    };
  }
  if (!doc) return null;
  switch (e.type) {
    case 'CompanyProfileCorrected': {
      const profile = { ...doc.profile, ...e.data.changes };
      return {
        ...doc,
        profile,
        name: profile.tradeName ?? doc.name,
        legalName: profile.legalName ?? doc.legalName,
        taxId: profile.taxId?.number ?? doc.taxId,
      };
    }
    case 'CompanySuspended':
      return { ...doc, status: 'suspended', suspendedAt: at, suspensionReason: e.data.reason };
    case 'CompanyReactivated':
      return { ...doc, status: 'active', suspendedAt: null, suspensionReason: null };
    case 'ModuleEnabled':
      return { ...doc, modules: [...doc.modules.filter((m) => m !== e.data.module), e.data.module].sort() };
    case 'ModuleDisabled':
      return { ...doc, modules: doc.modules.filter((m) => m !== e.data.module) };
    case 'RoleDefined': {
      const { code, ...role } = e.data;
      return { ...doc, roles: { ...doc.roles, [code]: role } };
    }
    case 'RoleRetired': {
      const { [e.data.code]: _gone, ...roles } = doc.roles;
      return { ...doc, roles };
    }
    default:
      return doc;
  }
}

export const companiesProjection: Projection = {
  name: COMPANIES.projection,
  version: 2,
  collections: {
    [COMPANIES.collection]: [{ keys: { tenantId: 1, status: 1 }, name: 'by_status' }],
    [MEMBERSHIPS.collection]: [
      { keys: { userId: 1, active: 1 }, name: 'by_user' },
      { keys: { companyId: 1, active: 1 }, name: 'by_company' },
    ],
  },
  eventTypes: COMPANY_EVENT_TYPES,
  async handle(event, tx) {
    const e = { type: event.type, data: event.data } as CompanyEvent;
    const companyId = aggregateIdOf(event);
    const at = event.metadata.occurredAt;
    switch (e.type) {
      case 'MembershipGranted':
      case 'MembershipChanged':
      case 'MembershipRevoked': {
        const { userId } = e.data;
        const id = membershipId(companyId, userId);
        await applyTo<MembershipDoc>(tx, MEMBERSHIPS.collection, PLATFORM_DOCS, id, event, (doc) => ({
          tenantId: PLATFORM_DOCS,
          id,
          companyId,
          userId,
          roles: e.type === 'MembershipRevoked' ? [] : e.data.roles,
          grantedAt: e.type === 'MembershipGranted' || !doc ? at : doc.grantedAt,
          active: e.type !== 'MembershipRevoked',
        }));
        break;
      }
      default:
        break;
    }
    // Every company event moves the company's revision (its ETag), memberships included.
    await applyTo<CompanyDoc>(tx, COMPANIES.collection, PLATFORM_DOCS, companyId, event, (doc) => {
      const next = foldCompany(doc, e, companyId, at);
      return next ? { ...next, revision: event.revision } : null;
    });
  },
};
