// A company: the tenant every clinical record belongs to, its roles and who may act in it.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import { ADMIN_ROLE, type CompanyEvent } from './events.js';

export interface RoleDefinition {
  name: string;
  permissions: string[];
  grantsAll: boolean;
}

export interface CompanyState {
  exists: boolean;
  name: string;
  roles: Record<string, RoleDefinition>;
  /** userId -> role codes */
  members: Record<string, string[]>;
}

export const initialCompanyState: CompanyState = { exists: false, name: '', roles: {}, members: {} };

export type CompanyCommand =
  | CommandEnvelope<'RegisterCompany', { name: string; legalName?: string | null; taxId?: string | null }>
  | CommandEnvelope<'DefineRole', { code: string; name: string; permissions: string[] }>
  | CommandEnvelope<'GrantMembership', { userId: string; roles: string[] }>
  | CommandEnvelope<'ChangeMembership', { userId: string; roles: string[] }>
  | CommandEnvelope<'RevokeMembership', { userId: string }>;

export function evolveCompany(s: CompanyState, e: CompanyEvent): CompanyState {
  switch (e.type) {
    case 'CompanyRegistered':
      return { ...s, exists: true, name: e.data.name };
    case 'RoleDefined': {
      const { code, ...role } = e.data;
      return { ...s, roles: { ...s.roles, [code]: role } };
    }
    case 'MembershipGranted':
    case 'MembershipChanged':
      return { ...s, members: { ...s.members, [e.data.userId]: [...e.data.roles] } };
    case 'MembershipRevoked': {
      const { [e.data.userId]: _gone, ...members } = s.members;
      return { ...s, members };
    }
  }
}

function mustExist(s: CompanyState): void {
  if (!s.exists) throw notFound('company');
}

function checkRoles(s: CompanyState, roles: string[]): string[] {
  const unique = [...new Set(roles)];
  if (unique.length === 0) throw new DomainError('roles-required', 'a membership needs at least one role', 422);
  const unknown = unique.filter((r) => !s.roles[r]);
  if (unknown.length > 0) throw new DomainError('role-unknown', `unknown role(s): ${unknown.join(', ')}`, 422, { roles: unknown });
  return unique;
}

/** At least one admin per company: refuse a change that would leave none. */
function keepsAnAdmin(s: CompanyState, userId: string, nextRoles: string[]): void {
  const admins = Object.entries(s.members).filter(([id, roles]) => (id === userId ? nextRoles : roles).includes(ADMIN_ROLE));
  if (admins.length === 0) throw rule('last-admin', 'a company must keep at least one admin');
}

export function decideCompany(cmd: CompanyCommand, s: CompanyState): CompanyEvent[] {
  switch (cmd.type) {
    case 'RegisterCompany': {
      if (s.exists) throw rule('company-exists', 'this company is already registered');
      const name = cmd.data.name.trim();
      if (!name) throw new DomainError('name-required', 'a company needs a name', 422);
      return [
        {
          type: 'CompanyRegistered',
          data: { companyId: cmd.aggregateId, name, legalName: cmd.data.legalName ?? null, taxId: cmd.data.taxId ?? null },
        },
        { type: 'RoleDefined', data: { code: ADMIN_ROLE, name: 'Administrator', permissions: [], grantsAll: true } },
      ];
    }
    case 'DefineRole': {
      mustExist(s);
      if (cmd.data.code === ADMIN_ROLE) throw rule('role-built-in', `the role '${ADMIN_ROLE}' is built in`);
      const permissions = [...new Set(cmd.data.permissions)].sort();
      return [{ type: 'RoleDefined', data: { code: cmd.data.code, name: cmd.data.name, permissions, grantsAll: false } }];
    }
    case 'GrantMembership': {
      mustExist(s);
      if (s.members[cmd.data.userId]) throw rule('already-member', 'the user is already a member of this company');
      return [{ type: 'MembershipGranted', data: { userId: cmd.data.userId, roles: checkRoles(s, cmd.data.roles) } }];
    }
    case 'ChangeMembership': {
      mustExist(s);
      if (!s.members[cmd.data.userId]) throw notFound('membership');
      const roles = checkRoles(s, cmd.data.roles);
      keepsAnAdmin(s, cmd.data.userId, roles);
      return [{ type: 'MembershipChanged', data: { userId: cmd.data.userId, roles } }];
    }
    case 'RevokeMembership': {
      mustExist(s);
      if (!s.members[cmd.data.userId]) throw notFound('membership');
      keepsAnAdmin(s, cmd.data.userId, []);
      return [{ type: 'MembershipRevoked', data: { userId: cmd.data.userId } }];
    }
  }
}

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  category: 'company',
  initialState: initialCompanyState,
  evolve: evolveCompany,
  decide: decideCompany,
};
