// The facts platform orchestrations read outside the streams they fold, declared here on the write side as a port:
// every one is read from a read model (eventual); the loader lives in src/facts/platform/ and the composition root wires it.
// What an orchestration folds from a stream itself (strong) it loads with loadAggregate and names in its own XxxFacts.

/** The platform read models a write may wait for (read-your-writes); the loader maps them to projections. */
export type PlatformModel = 'users' | 'sessions' | 'companies' | 'memberships' | 'apiClients';

/** What selecting a company answers: the company, the member's roles and the permissions they grant there. */
export interface CompanySelection {
  company: { id: string; name: string };
  roles: string[];
  permissions: string[];
}

/** Eventual (platformUsers): the account registered for a normalised e-mail, or null. */
export type UserByEmail = (email: string) => Promise<string | null>;
/** Eventual (platformUsers): whether an account with this id exists and is active. */
export type AccountActive = (userId: string) => Promise<boolean>;
/** Eventual (platformSessions): the user a session (open or ended) belongs to, or null when no such session. */
export type SessionHolder = (sessionId: string) => Promise<string | null>;
/** Eventual (platformSessions): the ids of a user's open sessions (in one company when named), a page at a time. */
export type OpenSessionsOf = (target: { userId: string; companyId?: string }) => AsyncIterable<string[]>;
/** Eventual (platformMemberships + platformCompanies): the user's active membership in a company, or null. */
export type MembershipIn = (userId: string, companyId: string) => Promise<CompanySelection | null>;
/** Eventual (platformMemberships): the companies offering the user a pending membership. */
export type PendingOffersOf = (userId: string) => Promise<string[]>;
/** Eventual (platformApiClients): the roles of each active API client of the company that holds `role`. */
export type ApiClientRolesHolding = (companyId: string, role: string) => Promise<string[][]>;
/** Configuration (set at start from the registered groups): every company permission, the catalog admin grants. */
export type PermissionCatalog = () => readonly string[];
/** Read-your-writes: true once the models applied `position`; false when `timeoutMs` ran out first. */
export type CaughtUp = (position: bigint, models: readonly PlatformModel[], options?: { timeoutMs?: number }) => Promise<boolean>;

/** The loader of every platform fact; each orchestration takes the part it names (`Pick<PlatformFacts, ...>`). */
export interface PlatformFacts {
  userByEmail: UserByEmail;
  accountActive: AccountActive;
  sessionHolder: SessionHolder;
  openSessionsOf: OpenSessionsOf;
  membershipIn: MembershipIn;
  pendingOffersOf: PendingOffersOf;
  apiClientRolesHolding: ApiClientRolesHolding;
  permissionCatalog: PermissionCatalog;
  caughtUp: CaughtUp;
}
