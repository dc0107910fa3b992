// Events of a company (tenant): its registration and profile, suspension, enabled modules, custom roles and memberships;
// the value types they carry (what a company is on paper, which optional modules it uses) and its status.
export { ADMIN_ROLE } from '../../../permissions/builtInRoles.js';

export interface CompanyAddress {
  line1: string;
  city: string;
  region?: string;
  postalCode?: string;
}

export interface CompanyProfile {
  legalName: string;
  tradeName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  taxId: { type: string; number: string };
  address: CompanyAddress;
  /** IANA time zone: the company's calendar days (schedules, licence expiry) are counted in it. */
  timeZone: string;
  /** ISO 4217. */
  currency: string;
}

export const CORRECTABLE_PROFILE_FIELDS = ['legalName', 'tradeName', 'country', 'taxId', 'address', 'timeZone', 'currency'] as const;

/**
 * Groups a company may switch off (their data stays; their routes answer 403 module-disabled). The others
 * (sign-in, administration, patients, system) are the service itself and are always on.
 */
export const OPTIONAL_MODULES = [
  'Dialisis',
  'Monitores',
  'FiltrosDialisis',
  'LineasArterial',
  'LineasVenosa',
  'Productos',
  'Clientes',
  'Widgets',
  'Generador',
] as const;

export type OptionalModule = (typeof OPTIONAL_MODULES)[number];

export const isOptionalModule = (tag: string): tag is OptionalModule => (OPTIONAL_MODULES as readonly string[]).includes(tag);

/** A company is active, or suspended (its members cannot sign in to it). */
export type CompanyStatus = 'active' | 'suspended';

export type CompanyEvent =
  /** `profile` and `modules` are absent on companies registered before the Empresas group (name only). */
  | {
      type: 'CompanyRegistered';
      data: {
        companyId: string;
        name: string;
        legalName: string | null;
        taxId: string | null;
        profile?: CompanyProfile;
        modules?: string[];
      };
    }
  /** Only the fields that changed, with their new values; the reason is in the metadata. */
  | { type: 'CompanyProfileCorrected'; data: { changes: Partial<CompanyProfile> } }
  | { type: 'CompanySuspended'; data: { reason: string } }
  | { type: 'CompanyReactivated'; data: { reason: string } }
  | { type: 'ModuleEnabled'; data: { module: string } }
  | { type: 'ModuleDisabled'; data: { module: string } }
  /** A role of this company; `grantsAll` roles hold every permission any registered group declares. */
  | { type: 'RoleDefined'; data: { code: string; name: string; permissions: string[]; grantsAll: boolean; description?: string } }
  | { type: 'RoleRetired'; data: { code: string } }
  /** `viaInvitation`: the person accepted a pending membership (absent when granted at once: the platform, older events). */
  | { type: 'MembershipGranted'; data: { userId: string; roles: string[]; viaInvitation?: boolean } }
  /**
   * A pending membership: nothing of it works until the person accepts it, signed in, with the invitation's one-time token
   * (SHA-256 kept), or activates the account this invitation created with it. `name` and `email` are what the company entered.
   */
  | {
      type: 'MembershipOffered';
      data: { userId: string; roles: string[]; name: string; email: string; tokenHash: string; expiresAt: string };
    }
  /** The person declined a pending membership. */
  | { type: 'MembershipOfferDeclined'; data: { userId: string } }
  /** The company withdrew a pending membership before it was accepted. */
  | { type: 'MembershipOfferWithdrawn'; data: { userId: string } }
  | { type: 'MembershipChanged'; data: { userId: string; roles: string[] } }
  | { type: 'MembershipRevoked'; data: { userId: string } };

export type CompanyEventType = CompanyEvent['type'];

export const COMPANY_EVENT_TYPES: readonly CompanyEventType[] = [
  'CompanyRegistered',
  'CompanyProfileCorrected',
  'CompanySuspended',
  'CompanyReactivated',
  'ModuleEnabled',
  'ModuleDisabled',
  'RoleDefined',
  'RoleRetired',
  'MembershipGranted',
  'MembershipChanged',
  'MembershipRevoked',
  'MembershipOffered',
  'MembershipOfferDeclined',
  'MembershipOfferWithdrawn',
];
