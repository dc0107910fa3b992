// The facts from other streams and read models that commands take from loaders wired at the composition root (issue 22
// item 3): the write side declares what it needs here and in its groups; src/facts/ implements it, reading models.
import type { PolicyState } from './empresas/policyDecider.js';
import type { StockFactLoaders } from './productos/stockFactLoaders.js';
import type { ConfirmerFactLoaders } from './filtros-dialisis/confirmerFactLoaders.js';
import type { AuthorizationFactLoaders } from './clientes/authorizationFactLoaders.js';

/** The company policy as a decision takes it: its revision (recorded in the event) and its settings. */
export type PolicyFacts = PolicyState;

export interface FactLoaders {
  /** Folded from the company's policy stream (strong): once per command, handed to its decider as `policy`. */
  policy(tenantId: string): Promise<PolicyFacts>;
  /** Read from the companies model (eventual): the company's calendar day (YYYY-MM-DD) at `at`, in its time zone. */
  companyDay(tenantId: string, at: Date): Promise<string>;
  /** Read from the memberships model (eventual): the user is an active member of the company. */
  isMember(userId: string, tenantId: string): Promise<boolean>;
  /** Read from the companies model (eventual): the codes that name no role of the company (built-in or its own). */
  unknownRoles(tenantId: string, codes: readonly string[]): Promise<string[]>;
  /** Read from the locations model (eventual): a location of the company. */
  isLocation(tenantId: string, locationId: string): Promise<boolean>;
  /** Read from the locations model (eventual): a station at that location of the company. */
  isStation(tenantId: string, locationId: string, stationId: string): Promise<boolean>;
  stock: StockFactLoaders;
  confirmers: ConfirmerFactLoaders;
  authorizations: AuthorizationFactLoaders;
}
