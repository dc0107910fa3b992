import { command, given } from '../deciderSpec.js';
import { companyDecider, type CompanyCommand } from './decider.js';
import type { CompanyEvent } from './events.js';
import { OPTIONAL_MODULES } from './events.js';

const cmd = (type: CompanyCommand['type'], data: unknown) => command<CompanyCommand>(type, data as never, { aggregateId: 'c1' });
const registered: CompanyEvent = {
  type: 'CompanyRegistered',
  data: { companyId: 'c1', name: 'Renal Norte', legalName: null, taxId: null },
};
const legacyAdminRole: CompanyEvent = {
  type: 'RoleDefined',
  data: { code: 'admin', name: 'Administrator', permissions: [], grantsAll: true },
};
const scribeRole: CompanyEvent = {
  type: 'RoleDefined',
  data: { code: 'scribe', name: 'Scribe', permissions: ['pacientes:read'], grantsAll: false },
};
const adminAna: CompanyEvent = { type: 'MembershipGranted', data: { userId: 'ana', roles: ['admin'] } };
const catalog = ['pacientes:read', 'pacientes:write', 'usuarios:read'];
const profile = {
  legalName: ' Centro Renal del Norte S.A.C. ',
  tradeName: 'Renal Norte',
  country: 'pe',
  taxId: { type: 'RUC', number: '20131312955' },
  address: { line1: 'Av. Arequipa 1234', city: 'Lima' },
  timeZone: 'America/Lima',
  currency: 'pen',
};

describe('company decider', () => {
  it('registers a company by name (bootstrap) or with a checked profile; built-in roles are not events', () => {
    given(companyDecider)
      .when(cmd('RegisterCompany', { name: ' Renal Norte ' }))
      .then(registered);
    given(companyDecider)
      .when(cmd('RegisterCompany', { profile }))
      .then({
        type: 'CompanyRegistered',
        data: {
          companyId: 'c1',
          name: 'Renal Norte',
          legalName: 'Centro Renal del Norte S.A.C.',
          taxId: '20131312955',
          profile: { ...profile, legalName: 'Centro Renal del Norte S.A.C.', country: 'PE', currency: 'PEN' },
        },
      });
    given(companyDecider, registered)
      .when(cmd('RegisterCompany', { name: 'x' }))
      .thenError('company-exists');
    given(companyDecider)
      .when(cmd('RegisterCompany', { name: '  ' }))
      .thenError('name-required');
  });

  it('refuses a tax id with a wrong check digit, an unknown time zone or currency, naming each field', () => {
    given(companyDecider)
      .when(cmd('RegisterCompany', { profile: { ...profile, taxId: { type: 'RUC', number: '20131312956' } } }))
      .thenError('validation-failed');
    given(companyDecider)
      .when(cmd('RegisterCompany', { profile: { ...profile, timeZone: 'Mars/Olympus' } }))
      .thenError('validation-failed');
    given(companyDecider)
      .when(cmd('RegisterCompany', { profile: { ...profile, currency: 'XYZ' } }))
      .thenError('validation-failed');
  });

  it('corrects only the fields that changed; nothing when nothing changed', () => {
    const history = companyDecider.decide(cmd('RegisterCompany', { profile }), companyDecider.initialState);
    given(companyDecider, ...history)
      .when(cmd('CorrectCompanyProfile', { changes: { tradeName: 'Renal Norte', currency: 'USD' } }))
      .then({ type: 'CompanyProfileCorrected', data: { changes: { currency: 'USD' } } });
    given(companyDecider, ...history)
      .when(cmd('CorrectCompanyProfile', { changes: { tradeName: 'Renal Norte' } }))
      .thenNothing();
    given(companyDecider, ...history)
      .when(cmd('CorrectCompanyProfile', { changes: { taxId: { type: 'RUC', number: '20100070970' } } }))
      .then({ type: 'CompanyProfileCorrected', data: { changes: { taxId: { type: 'RUC', number: '20100070970' } } } });
    given(companyDecider, ...history)
      .when(cmd('CorrectCompanyProfile', { changes: { taxId: { type: 'RUC', number: '20100070971' } } }))
      .thenError('validation-failed');
  });

  it('suspends and reactivates with a reason; a suspended company changes nothing of its own', () => {
    const suspended: CompanyEvent = { type: 'CompanySuspended', data: { reason: 'unpaid' } };
    given(companyDecider, registered)
      .when(cmd('SuspendCompany', { reason: 'unpaid' }))
      .then(suspended);
    given(companyDecider, registered, suspended)
      .when(cmd('SuspendCompany', { reason: 'x' }))
      .thenError('company-suspended');
    given(companyDecider, registered, suspended)
      .when(cmd('ReactivateCompany', { reason: 'paid' }))
      .then({ type: 'CompanyReactivated', data: { reason: 'paid' } });
    given(companyDecider, registered)
      .when(cmd('ReactivateCompany', { reason: 'x' }))
      .thenError('company-active');
    given(companyDecider, registered, suspended)
      .when(cmd('GrantMembership', { userId: 'bob', roles: ['nurse'] }))
      .thenError('company-suspended');
    given(companyDecider, registered, suspended)
      .when(cmd('SetModules', { modules: [] }))
      .thenError('company-suspended');
  });

  it('switches optional modules by difference', () => {
    given(companyDecider, registered)
      .when(cmd('SetModules', { modules: OPTIONAL_MODULES.filter((m) => m !== 'Productos' && m !== 'Clientes') }))
      .then({ type: 'ModuleDisabled', data: { module: 'Clientes' } }, { type: 'ModuleDisabled', data: { module: 'Productos' } });
    given(companyDecider, registered, { type: 'ModuleDisabled', data: { module: 'Clientes' } })
      .when(cmd('SetModules', { modules: [...OPTIONAL_MODULES] }))
      .then({ type: 'ModuleEnabled', data: { module: 'Clientes' } });
    given(companyDecider, registered)
      .when(cmd('SetModules', { modules: ['Pacientes'] }))
      .thenError('module-unknown');
  });

  it('defines custom roles within the catalogue, never over a built-in one; retires them only when nobody holds them', () => {
    given(companyDecider, registered)
      .when(cmd('DefineRole', { code: 'scribe', name: 'Scribe', permissions: ['pacientes:read', 'pacientes:read'], catalog }))
      .then(scribeRole);
    given(companyDecider, registered)
      .when(cmd('DefineRole', { code: 'nurse', name: 'x', permissions: [], catalog }))
      .thenError('role-built-in');
    given(companyDecider, registered)
      .when(cmd('DefineRole', { code: 'admin', name: 'x', permissions: [], catalog }))
      .thenError('role-built-in');
    given(companyDecider, registered, scribeRole)
      .when(cmd('DefineRole', { code: 'scribe', name: 'x', permissions: [], catalog }))
      .thenError('role-exists');
    given(companyDecider, registered)
      .when(cmd('DefineRole', { code: 'root', name: 'x', permissions: ['sistema:projections'], catalog }))
      .thenError('validation-failed');
    given(companyDecider, registered, scribeRole)
      .when(cmd('ChangeRole', { code: 'scribe', name: 'Scribe', permissions: ['pacientes:write'], catalog }))
      .then({ type: 'RoleDefined', data: { code: 'scribe', name: 'Scribe', permissions: ['pacientes:write'], grantsAll: false } });
    given(companyDecider, registered, scribeRole)
      .when(cmd('ChangeRole', { code: 'scribe', name: 'Scribe', permissions: ['pacientes:read'], catalog }))
      .thenNothing();
    const bobScribe: CompanyEvent = { type: 'MembershipGranted', data: { userId: 'bob', roles: ['scribe'] } };
    given(companyDecider, registered, scribeRole, bobScribe)
      .when(cmd('RetireRole', { code: 'scribe' }))
      .thenError('role-in-use');
    given(companyDecider, registered, scribeRole)
      .when(cmd('RetireRole', { code: 'scribe' }))
      .then({ type: 'RoleRetired', data: { code: 'scribe' } });
    given(companyDecider, registered)
      .when(cmd('RetireRole', { code: 'nurse' }))
      .thenError('role-built-in');
  });

  it('grants memberships with existing roles only (built-in or custom), once', () => {
    given(companyDecider, registered)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['admin', 'admin'] }))
      .then(adminAna);
    given(companyDecider, registered, scribeRole)
      .when(cmd('GrantMembership', { userId: 'bob', roles: ['scribe', 'nurse'] }))
      .then({ type: 'MembershipGranted', data: { userId: 'bob', roles: ['nurse', 'scribe'] } });
    given(companyDecider, registered)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['chef'] }))
      .thenError('role-unknown');
    given(companyDecider, registered)
      .when(cmd('GrantMembership', { userId: 'ana', roles: [] }))
      .thenError('roles-required');
    given(companyDecider, registered, adminAna)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['admin'] }))
      .thenError('already-member');
    given(companyDecider)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['admin'] }))
      .thenError('not-found');
  });

  it('keeps at least one admin (also for companies that recorded the admin role as data)', () => {
    given(companyDecider, registered, legacyAdminRole, adminAna)
      .when(cmd('RevokeMembership', { userId: 'ana' }))
      .thenError('last-admin');
    given(companyDecider, registered, adminAna)
      .when(cmd('ChangeMembership', { userId: 'ana', roles: ['nurse'] }))
      .thenError('last-admin');
    const bob: CompanyEvent = { type: 'MembershipGranted', data: { userId: 'bob', roles: ['admin'] } };
    given(companyDecider, registered, adminAna, bob)
      .when(cmd('ChangeMembership', { userId: 'ana', roles: ['nurse'] }))
      .then({ type: 'MembershipChanged', data: { userId: 'ana', roles: ['nurse'] } });
    given(companyDecider, registered, adminAna, bob)
      .when(cmd('ChangeMembership', { userId: 'ana', roles: ['admin'] }))
      .thenNothing();
    given(companyDecider, registered, adminAna, bob)
      .when(cmd('RevokeMembership', { userId: 'bob' }))
      .then({ type: 'MembershipRevoked', data: { userId: 'bob' } });
    given(companyDecider, registered)
      .when(cmd('RevokeMembership', { userId: 'zoe' }))
      .thenError('not-found');
  });
  describe('pending memberships (invitations)', () => {
    const offer = (data: Record<string, unknown> = {}) =>
      cmd('OfferMembership', {
        userId: 'bob',
        roles: ['nurse'],
        name: 'Bob',
        email: 'bob@x.pe',
        tokenHash: 'h1',
        expiresAt: '2100-01-01T00:00:00.000Z',
        replace: false,
        ...data,
      });
    const offered: CompanyEvent = {
      type: 'MembershipOffered',
      data: { userId: 'bob', roles: ['nurse'], name: 'Bob', email: 'bob@x.pe', tokenHash: 'h1', expiresAt: '2100-01-01T00:00:00.000Z' },
    };
    const accept = (presentedHash: string, at = '2099-01-01T00:00:00.000Z') =>
      command<CompanyCommand>('AcceptMembershipOffer', { userId: 'bob', presentedHash }, { aggregateId: 'c1', at });

    it('offers a membership that grants nothing until accepted with its token, once, before it expires', () => {
      given(companyDecider, registered).when(offer()).then(offered);
      given(companyDecider, registered, offered)
        .when(accept('h1'))
        .then({ type: 'MembershipGranted', data: { userId: 'bob', roles: ['nurse'], viaInvitation: true } });
      given(companyDecider, registered, offered).when(accept('h2')).thenError('invitation-invalid');
      given(companyDecider, registered, offered).when(accept('h1', '2100-01-01T00:00:00.000Z')).thenError('invitation-invalid');
      given(companyDecider, registered).when(accept('h1')).thenError('invitation-invalid');
      given(companyDecider, registered, offered, {
        type: 'MembershipGranted',
        data: { userId: 'bob', roles: ['nurse'], viaInvitation: true },
      })
        .when(accept('h1'))
        .thenError('invitation-invalid');
    });

    it('someone already invited or a member is not invited again; a new token replaces the pending one', () => {
      given(companyDecider, registered, offered).when(offer()).thenError('already-member');
      given(companyDecider, registered, adminAna)
        .when(offer({ userId: 'ana' }))
        .thenError('already-member');
      given(companyDecider, registered, offered)
        .when(offer({ tokenHash: 'h2', replace: true }))
        .then({ ...offered, data: { ...offered.data, tokenHash: 'h2' } });
      given(companyDecider, registered, offered, { ...offered, data: { ...offered.data, tokenHash: 'h2' } })
        .when(accept('h1'))
        .thenError('invitation-invalid');
      given(companyDecider, registered)
        .when(offer({ replace: true }))
        .thenError('not-found');
      given(companyDecider, registered)
        .when(offer({ roles: ['chef'] }))
        .thenError('role-unknown');
    });

    it('a pending membership is declined by its person or withdrawn by the company; never counts as an admin; holds its roles', () => {
      given(companyDecider, registered, offered)
        .when(cmd('DeclineMembershipOffer', { userId: 'bob' }))
        .then({ type: 'MembershipOfferDeclined', data: { userId: 'bob' } });
      given(companyDecider, registered)
        .when(cmd('DeclineMembershipOffer', { userId: 'bob' }))
        .thenError('not-found');
      given(companyDecider, registered, adminAna, offered)
        .when(cmd('RevokeMembership', { userId: 'bob' }))
        .then({ type: 'MembershipOfferWithdrawn', data: { userId: 'bob' } });
      const adminOffer = { ...offered, data: { ...offered.data, roles: ['admin'] } } as CompanyEvent;
      given(companyDecider, registered, adminAna, adminOffer)
        .when(cmd('ChangeMembership', { userId: 'ana', roles: ['nurse'] }))
        .thenError('last-admin');
      const scribeOffer = { ...offered, data: { ...offered.data, roles: ['scribe'] } } as CompanyEvent;
      given(companyDecider, registered, scribeRole, scribeOffer)
        .when(cmd('RetireRole', { code: 'scribe' }))
        .thenError('role-in-use');
    });
  });
});
