// Events of a company (tenant): its registration, its roles (data, not code) and its memberships.

export const ADMIN_ROLE = 'admin';

export type CompanyEvent =
  | { type: 'CompanyRegistered'; data: { companyId: string; name: string; legalName: string | null; taxId: string | null } }
  /** A role of this company; `grantsAll` roles hold every permission any registered group declares. */
  | { type: 'RoleDefined'; data: { code: string; name: string; permissions: string[]; grantsAll: boolean } }
  | { type: 'MembershipGranted'; data: { userId: string; roles: string[] } }
  | { type: 'MembershipChanged'; data: { userId: string; roles: string[] } }
  | { type: 'MembershipRevoked'; data: { userId: string } };

export type CompanyEventType = CompanyEvent['type'];

export const COMPANY_EVENT_TYPES: readonly CompanyEventType[] = [
  'CompanyRegistered',
  'RoleDefined',
  'MembershipGranted',
  'MembershipChanged',
  'MembershipRevoked',
];
