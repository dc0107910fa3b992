import { command, given } from '../deciderSpec.js';
import { companyDecider, type CompanyCommand } from './decider.js';
import type { CompanyEvent } from './events.js';

const cmd = (type: CompanyCommand['type'], data: unknown) => command<CompanyCommand>(type, data as never, { aggregateId: 'c1' });
const registered: CompanyEvent = {
  type: 'CompanyRegistered',
  data: { companyId: 'c1', name: 'Renal Norte', legalName: null, taxId: null },
};
const adminRole: CompanyEvent = { type: 'RoleDefined', data: { code: 'admin', name: 'Administrator', permissions: [], grantsAll: true } };
const nurseRole: CompanyEvent = {
  type: 'RoleDefined',
  data: { code: 'nurse', name: 'Nurse', permissions: ['pacientes:read'], grantsAll: false },
};
const adminAna: CompanyEvent = { type: 'MembershipGranted', data: { userId: 'ana', roles: ['admin'] } };

describe('company decider', () => {
  it('registers a company with its built-in admin role', () => {
    given(companyDecider)
      .when(cmd('RegisterCompany', { name: ' Renal Norte ' }))
      .then(registered, adminRole);
    given(companyDecider, registered, adminRole)
      .when(cmd('RegisterCompany', { name: 'x' }))
      .thenError('company-exists');
    given(companyDecider)
      .when(cmd('RegisterCompany', { name: '  ' }))
      .thenError('name-required');
  });

  it('defines roles as data, but never redefines admin', () => {
    given(companyDecider, registered, adminRole)
      .when(cmd('DefineRole', { code: 'nurse', name: 'Nurse', permissions: ['pacientes:read', 'pacientes:read'] }))
      .then(nurseRole);
    given(companyDecider, registered, adminRole)
      .when(cmd('DefineRole', { code: 'admin', name: 'x', permissions: [] }))
      .thenError('role-built-in');
  });

  it('grants memberships with defined roles only, once', () => {
    given(companyDecider, registered, adminRole)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['admin', 'admin'] }))
      .then(adminAna);
    given(companyDecider, registered, adminRole)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['chef'] }))
      .thenError('role-unknown');
    given(companyDecider, registered, adminRole)
      .when(cmd('GrantMembership', { userId: 'ana', roles: [] }))
      .thenError('roles-required');
    given(companyDecider, registered, adminRole, adminAna)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['admin'] }))
      .thenError('already-member');
    given(companyDecider)
      .when(cmd('GrantMembership', { userId: 'ana', roles: ['admin'] }))
      .thenError('not-found');
  });

  it('keeps at least one admin', () => {
    given(companyDecider, registered, adminRole, nurseRole, adminAna)
      .when(cmd('RevokeMembership', { userId: 'ana' }))
      .thenError('last-admin');
    given(companyDecider, registered, adminRole, nurseRole, adminAna)
      .when(cmd('ChangeMembership', { userId: 'ana', roles: ['nurse'] }))
      .thenError('last-admin');
    const bob: CompanyEvent = { type: 'MembershipGranted', data: { userId: 'bob', roles: ['admin'] } };
    given(companyDecider, registered, adminRole, nurseRole, adminAna, bob)
      .when(cmd('ChangeMembership', { userId: 'ana', roles: ['nurse'] }))
      .then({ type: 'MembershipChanged', data: { userId: 'ana', roles: ['nurse'] } });
    given(companyDecider, registered, adminRole, nurseRole, adminAna, bob)
      .when(cmd('RevokeMembership', { userId: 'bob' }))
      .then({ type: 'MembershipRevoked', data: { userId: 'bob' } });
    given(companyDecider, registered, adminRole)
      .when(cmd('RevokeMembership', { userId: 'zoe' }))
      .thenError('not-found');
  });
});
