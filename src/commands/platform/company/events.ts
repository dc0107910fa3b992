// Events of a company (tenant): its registration and profile, suspension, enabled modules, custom roles and memberships.
import type { CompanyProfile } from './profile.js';

export { ADMIN_ROLE } from '../../../permissions/builtInRoles.js';

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
