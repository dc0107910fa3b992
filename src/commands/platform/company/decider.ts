// A company: the tenant every clinical record belongs to; its profile, status, modules, roles and who may act in it.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { DomainError, notFound, rule } from '../../decider.js';
import { isBuiltInRole, type RoleDefinition } from '../../../permissions/builtInRoles.js';
import {
  ADMIN_ROLE,
  CORRECTABLE_PROFILE_FIELDS,
  isOptionalModule,
  OPTIONAL_MODULES,
  type CompanyEvent,
  type CompanyProfile,
  type CompanyStatus,
} from './events.js';
import { checkedProfile } from './profileRules.js';
import { decideOffer, type MembershipOffer, type OfferCommand } from './membershipOffers.js';

export type { RoleDefinition };

export interface CompanyState {
  exists: boolean;
  name: string;
  status: CompanyStatus;
  /** Partial for companies registered by name only (bootstrap, before the Empresas group). */
  profile: Partial<CompanyProfile>;
  modules: string[];
  /** Custom roles (and the 'admin' role older companies recorded as data); built-in roles are code. */
  roles: Record<string, RoleDefinition>;
  /** userId -> role codes */
  members: Record<string, string[]>;
  /** userId -> a pending membership (nothing of it works until accepted) */
  offers: Record<string, MembershipOffer>;
}

export const initialCompanyState: CompanyState = {
  exists: false,
  name: '',
  status: 'active',
  profile: {},
  modules: [...OPTIONAL_MODULES],
  roles: {},
  members: {},
  offers: {},
};

export interface RoleInput {
  code: string;
  name: string;
  permissions: string[];
  description?: string;
  /** Every permission the registered groups declare: a role grants nothing outside it. */
  catalog: readonly string[];
}

export type CompanyCommand =
  | CommandEnvelope<
      'RegisterCompany',
      { name?: string; legalName?: string | null; taxId?: string | null; profile?: CompanyProfile; modules?: string[] }
    >
  | CommandEnvelope<'CorrectCompanyProfile', { changes: Partial<CompanyProfile> }>
  | CommandEnvelope<'SuspendCompany', { reason: string }>
  | CommandEnvelope<'ReactivateCompany', { reason: string }>
  | CommandEnvelope<'SetModules', { modules: string[] }>
  | CommandEnvelope<'DefineRole', { code: string; name: string; permissions: string[]; description?: string; catalog?: readonly string[] }>
  | CommandEnvelope<'ChangeRole', RoleInput>
  | CommandEnvelope<'RetireRole', { code: string }>
  | CommandEnvelope<'GrantMembership', { userId: string; roles: string[] }>
  | CommandEnvelope<'ChangeMembership', { userId: string; roles: string[] }>
  | CommandEnvelope<'RevokeMembership', { userId: string }>
  | OfferCommand;

export function evolveCompany(s: CompanyState, e: CompanyEvent): CompanyState {
  switch (e.type) {
    case 'CompanyRegistered':
      return { ...s, exists: true, name: e.data.name, profile: e.data.profile ?? {}, modules: e.data.modules ?? s.modules };
    case 'CompanyProfileCorrected': {
      const profile = { ...s.profile, ...e.data.changes };
      return { ...s, profile, name: profile.tradeName ?? s.name };
    }
    case 'CompanySuspended':
      return { ...s, status: 'suspended' };
    case 'CompanyReactivated':
      return { ...s, status: 'active' };
    case 'ModuleEnabled':
      return { ...s, modules: [...s.modules.filter((m) => m !== e.data.module), e.data.module].sort() };
    case 'ModuleDisabled':
      return { ...s, modules: s.modules.filter((m) => m !== e.data.module) };
    case 'RoleDefined': {
      const { code, ...role } = e.data;
      return { ...s, roles: { ...s.roles, [code]: role } };
    }
    case 'RoleRetired': {
      const { [e.data.code]: _gone, ...roles } = s.roles;
      return { ...s, roles };
    }
    case 'MembershipGranted':
    case 'MembershipChanged': {
      const { [e.data.userId]: _accepted, ...offers } = s.offers;
      return { ...s, offers, members: { ...s.members, [e.data.userId]: [...e.data.roles] } };
    }
    case 'MembershipRevoked': {
      const { [e.data.userId]: _gone, ...members } = s.members;
      return { ...s, members };
    }
    case 'MembershipOffered': {
      const { userId, ...offer } = e.data;
      return { ...s, offers: { ...s.offers, [userId]: { ...offer, roles: [...offer.roles] } } };
    }
    case 'MembershipOfferDeclined':
    case 'MembershipOfferWithdrawn': {
      const { [e.data.userId]: _gone, ...offers } = s.offers;
      return { ...s, offers };
    }
  }
}

function mustExist(s: CompanyState): void {
  if (!s.exists) throw notFound('company');
}

/** Suspension stops the company's own administration; the platform still suspends and reactivates. */
function mustBeActive(s: CompanyState): void {
  mustExist(s);
  if (s.status === 'suspended')
    throw new DomainError('company-suspended', 'the company is suspended: its records can be read, not changed', 403);
}

const roleExists = (s: CompanyState, code: string): boolean => isBuiltInRole(code) || code in s.roles;

function checkRoles(s: CompanyState, roles: string[]): string[] {
  const unique = [...new Set(roles)].sort();
  if (unique.length === 0) throw new DomainError('roles-required', 'a membership needs at least one role', 422);
  const unknown = unique.filter((r) => !roleExists(s, r));
  if (unknown.length > 0) throw new DomainError('role-unknown', `unknown role(s): ${unknown.join(', ')}`, 422, { roles: unknown });
  return unique;
}

/** At least one admin per company: refuse a change that would leave none. */
function keepsAnAdmin(s: CompanyState, userId: string, nextRoles: string[]): void {
  const admins = Object.entries(s.members).filter(([id, roles]) => (id === userId ? nextRoles : roles).includes(ADMIN_ROLE));
  if (admins.length === 0) throw rule('last-admin', 'a company must keep at least one admin');
}

function checkedPermissions(permissions: string[], catalog: readonly string[] | undefined): string[] {
  const unique = [...new Set(permissions)].sort();
  if (!catalog) return unique;
  const unknown = unique.filter((p) => !catalog.includes(p));
  if (unknown.length > 0) {
    throw new DomainError('validation-failed', `unknown permission(s): ${unknown.join(', ')}`, 422, {
      errors: [{ field: 'permissions', message: `not in the permission catalogue: ${unknown.join(', ')}` }],
    });
  }
  return unique;
}

function changedFields(s: CompanyState, changes: Partial<CompanyProfile>): Partial<CompanyProfile> {
  const out: Record<string, unknown> = {};
  for (const field of CORRECTABLE_PROFILE_FIELDS) {
    const next = changes[field];
    if (next !== undefined && JSON.stringify(next) !== JSON.stringify(s.profile[field])) out[field] = next;
  }
  return out;
}

function register(cmd: Extract<CompanyCommand, { type: 'RegisterCompany' }>, s: CompanyState): CompanyEvent[] {
  if (s.exists) throw rule('company-exists', 'this company is already registered');
  const profile = cmd.data.profile ? checkedProfile(cmd.data.profile) : undefined;
  const name = (profile?.tradeName ?? cmd.data.name ?? '').trim();
  if (!name) throw new DomainError('name-required', 'a company needs a name', 422);
  const modules = cmd.data.modules ? [...new Set(cmd.data.modules)].sort() : undefined;
  const unknown = (modules ?? []).filter((m) => !isOptionalModule(m));
  if (unknown.length > 0) throw new DomainError('module-unknown', `unknown module(s): ${unknown.join(', ')}`, 422, { modules: unknown });
  const registered: CompanyEvent = {
    type: 'CompanyRegistered',
    data: {
      companyId: cmd.aggregateId,
      name,
      legalName: profile?.legalName ?? cmd.data.legalName ?? null,
      taxId: profile?.taxId.number ?? cmd.data.taxId ?? null,
      ...(profile ? { profile } : {}),
      ...(modules ? { modules } : {}),
    },
  };
  return [registered];
}

function setModules(cmd: Extract<CompanyCommand, { type: 'SetModules' }>, s: CompanyState): CompanyEvent[] {
  mustBeActive(s);
  const wanted = [...new Set(cmd.data.modules)];
  const unknown = wanted.filter((m) => !isOptionalModule(m));
  if (unknown.length > 0) throw new DomainError('module-unknown', `unknown module(s): ${unknown.join(', ')}`, 422, { modules: unknown });
  const enable = wanted.filter((m) => !s.modules.includes(m)).sort();
  const disable = s.modules.filter((m) => !wanted.includes(m)).sort();
  return [
    ...enable.map((module): CompanyEvent => ({ type: 'ModuleEnabled', data: { module } })),
    ...disable.map((module): CompanyEvent => ({ type: 'ModuleDisabled', data: { module } })),
  ];
}

export function decideCompany(cmd: CompanyCommand, s: CompanyState): CompanyEvent[] {
  switch (cmd.type) {
    case 'RegisterCompany':
      return register(cmd, s);
    case 'CorrectCompanyProfile': {
      mustBeActive(s);
      // Judged as the whole profile it makes: a tax id is checked against the company's country even when only it changes.
      const changes = changedFields(s, checkedProfile({ ...s.profile, ...cmd.data.changes }));
      return Object.keys(changes).length === 0 ? [] : [{ type: 'CompanyProfileCorrected', data: { changes } }];
    }
    case 'SuspendCompany':
      mustExist(s);
      if (s.status === 'suspended') throw rule('company-suspended', 'the company is already suspended');
      return [{ type: 'CompanySuspended', data: { reason: cmd.data.reason } }];
    case 'ReactivateCompany':
      mustExist(s);
      if (s.status === 'active') throw rule('company-active', 'the company is not suspended');
      return [{ type: 'CompanyReactivated', data: { reason: cmd.data.reason } }];
    case 'SetModules':
      return setModules(cmd, s);
    case 'DefineRole': {
      mustBeActive(s);
      if (isBuiltInRole(cmd.data.code)) throw rule('role-built-in', `the role '${cmd.data.code}' is built in`);
      if (cmd.data.code in s.roles) throw rule('role-exists', `the role '${cmd.data.code}' already exists`);
      const { code, name, description } = cmd.data;
      const permissions = checkedPermissions(cmd.data.permissions, cmd.data.catalog);
      return [{ type: 'RoleDefined', data: { code, name, permissions, grantsAll: false, ...(description ? { description } : {}) } }];
    }
    case 'ChangeRole': {
      mustBeActive(s);
      if (isBuiltInRole(cmd.data.code)) throw rule('role-built-in', `the role '${cmd.data.code}' is built in and cannot be changed`);
      const current = s.roles[cmd.data.code];
      if (!current) throw notFound('role');
      const { code, name, description } = cmd.data;
      const permissions = checkedPermissions(cmd.data.permissions, cmd.data.catalog);
      const next = { name, permissions, grantsAll: false, ...(description ? { description } : {}) };
      if (JSON.stringify(next) === JSON.stringify(current)) return [];
      return [{ type: 'RoleDefined', data: { code, ...next } }];
    }
    case 'RetireRole': {
      mustBeActive(s);
      if (isBuiltInRole(cmd.data.code)) throw rule('role-built-in', `the role '${cmd.data.code}' is built in and cannot be retired`);
      if (!s.roles[cmd.data.code]) throw notFound('role');
      // A pending membership holds its roles too: accepting it must not name a retired role.
      const held = [...Object.values(s.members), ...Object.values(s.offers).map((o) => o.roles)];
      const holders = held.filter((roles) => roles.includes(cmd.data.code)).length;
      if (holders > 0) throw rule('role-in-use', `the role is held by ${holders} member(s): change their roles first`, { holders });
      return [{ type: 'RoleRetired', data: { code: cmd.data.code } }];
    }
    case 'GrantMembership': {
      mustBeActive(s);
      if (s.members[cmd.data.userId]) throw rule('already-member', 'the user is already a member of this company');
      return [{ type: 'MembershipGranted', data: { userId: cmd.data.userId, roles: checkRoles(s, cmd.data.roles) } }];
    }
    case 'ChangeMembership': {
      mustBeActive(s);
      if (!s.members[cmd.data.userId]) throw notFound('membership');
      const roles = checkRoles(s, cmd.data.roles);
      keepsAnAdmin(s, cmd.data.userId, roles);
      if (JSON.stringify(roles) === JSON.stringify([...s.members[cmd.data.userId]!].sort())) return [];
      return [{ type: 'MembershipChanged', data: { userId: cmd.data.userId, roles } }];
    }
    case 'RevokeMembership': {
      mustBeActive(s);
      // A pending membership is withdrawn: it never granted anything.
      if (!s.members[cmd.data.userId] && s.offers[cmd.data.userId])
        return [{ type: 'MembershipOfferWithdrawn', data: { userId: cmd.data.userId } }];
      if (!s.members[cmd.data.userId]) throw notFound('membership');
      keepsAnAdmin(s, cmd.data.userId, []);
      return [{ type: 'MembershipRevoked', data: { userId: cmd.data.userId } }];
    }
    case 'OfferMembership':
    case 'AcceptMembershipOffer':
    case 'DeclineMembershipOffer':
      mustBeActive(s);
      return decideOffer(cmd, s, (roles) => checkRoles(s, roles));
  }
}

export const companyDecider: Decider<CompanyCommand, CompanyEvent, CompanyState> = {
  category: 'company',
  initialState: initialCompanyState,
  evolve: evolveCompany,
  decide: decideCompany,
};
