// Companies (profile, status, modules, custom roles) and memberships per user and per company: GET /tenants,
// selection, permissions on every request, GET /empresas and the Usuarios lists.
import { applyTo, type Projection } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { COMPANY_EVENT_TYPES, type CompanyEvent, OPTIONAL_MODULES } from '../../commands/platform/company/events.js';
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

/** The company document an event leaves (every company event is a revision of it): the projection's fold, for a read as it was. */
export function companyRecordFold(doc: CompanyDoc | null, event: RecordedEvent, companyId: string): CompanyDoc | null {
  const next = foldCompany(doc, { type: event.type, data: event.data } as CompanyEvent, companyId, event.metadata.occurredAt);
  return next ? ({ ...next, revision: event.revision, _position: Number(event.position) } as CompanyDoc) : null;
}

type MembershipFold = Pick<MembershipDoc, 'roles' | 'grantedAt' | 'active' | 'status' | 'invited'>;

/** How a membership event changes the (company, user) document; null for the other company events. */
function membershipFold(e: CompanyEvent, at: string): ((doc: MembershipDoc | null) => MembershipFold | null) | null {
  switch (e.type) {
    case 'MembershipGranted':
      return () => ({ roles: e.data.roles, grantedAt: at, active: true, status: 'active', invited: null });
    case 'MembershipChanged':
      return (doc) => ({ roles: e.data.roles, grantedAt: doc?.grantedAt ?? at, active: true, status: 'active', invited: null });
    case 'MembershipOffered': {
      const { roles, name, email, expiresAt } = e.data;
      // A new token for a pending invitation keeps its date.
      return (doc) => ({
        roles,
        grantedAt: doc?.status === 'pending' ? doc.grantedAt : at,
        active: false,
        status: 'pending',
        invited: { name, email, expiresAt },
      });
    }
    case 'MembershipRevoked':
    case 'MembershipOfferDeclined':
    case 'MembershipOfferWithdrawn':
      return (doc) => ({ roles: [], grantedAt: doc?.grantedAt ?? at, active: false, status: 'revoked', invited: doc?.invited ?? null });
    default:
      return null;
  }
}

/** The (company, user) membership an event of the company's stream leaves: the projection's fold, for a read as it was. */
export function foldMembership(doc: MembershipDoc | null, event: RecordedEvent, userId: string): MembershipDoc | null {
  const e = { type: event.type, data: event.data } as CompanyEvent;
  const membership = membershipFold(e, event.metadata.occurredAt);
  if (!membership || (e.data as { userId?: string }).userId !== userId) return doc;
  const next = membership(doc);
  const companyId = aggregateIdOf(event);
  const id = membershipId(companyId, userId);
  return next && { ...next, tenantId: PLATFORM_DOCS, id, companyId, userId, _position: Number(event.position) };
}

export const companiesProjection: Projection = {
  name: COMPANIES.projection,
  // 3: memberships carry their status (pending invitations) and what the inviting company entered.
  version: 3,
  collections: {
    [COMPANIES.collection]: [{ keys: { tenantId: 1, status: 1 }, name: 'by_status' }],
    [MEMBERSHIPS.collection]: [
      { keys: { userId: 1, active: 1 }, name: 'by_user' },
      { keys: { companyId: 1, active: 1 }, name: 'by_company' },
      { keys: { userId: 1, status: 1 }, name: 'by_user_status' },
      { keys: { companyId: 1, status: 1 }, name: 'by_company_status' },
    ],
  },
  eventTypes: COMPANY_EVENT_TYPES,
  async handle(event, tx) {
    const e = { type: event.type, data: event.data } as CompanyEvent;
    const companyId = aggregateIdOf(event);
    const at = event.metadata.occurredAt;
    const membership = membershipFold(e, at);
    if (membership) {
      const { userId } = e.data as { userId: string };
      const id = membershipId(companyId, userId);
      await applyTo<MembershipDoc>(tx, MEMBERSHIPS.collection, PLATFORM_DOCS, id, event, (doc) => {
        const next = membership(doc);
        return next && { ...next, tenantId: PLATFORM_DOCS, id, companyId, userId };
      });
    }
    // Every company event moves the company's revision (its ETag), memberships included.
    await applyTo<CompanyDoc>(tx, COMPANIES.collection, PLATFORM_DOCS, companyId, event, (doc) => {
      const next = foldCompany(doc, e, companyId, at);
      return next ? { ...next, revision: event.revision } : null;
    });
  },
};
