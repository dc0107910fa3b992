// The Empresas read models as record models: a location and the company policy, each with get, or404 and the
// read-after-write `latest` (waits for the projection, else folds the record's own stream).
import type { Collection } from '../../stores/readStore.js';
import type { TenantScope } from '../tenantScope.js';
import type { ReadServices } from '../../readServices.js';
import { recordModel } from '../recordModel.js';
import { COMPANY_POLICIES, EMPRESAS_PROJECTION, LOCATIONS } from '../../projections/empresas/empresasProjection.js';
import { foldLocation, type LocationDoc } from '../../projections/empresas/locationDoc.js';
import { foldPolicy, type PolicyDoc } from '../../projections/empresas/policyDoc.js';
import { POLICY_CATEGORY } from '../../commands/empresas/policyEvents.js';
import { LOCATION_CATEGORY } from '../../commands/empresas/locationEvents.js';

/** The location record (sede, with its rooms and stations). */
export const locationModel = recordModel<LocationDoc>({
  projection: EMPRESAS_PROJECTION,
  collection: LOCATIONS,
  category: LOCATION_CATEGORY,
  fold: foldLocation,
  notFound: 'Location not found',
});
export const locations = locationModel.collection;

/** The company's policy record: one stream per company, its id the company's (absent while the defaults apply). */
export const policyModel = recordModel<PolicyDoc>({
  projection: EMPRESAS_PROJECTION,
  collection: COMPANY_POLICIES,
  category: POLICY_CATEGORY,
  fold: foldPolicy,
  notFound: 'Policy not found',
});

export const policies = (services: ReadServices): Collection<PolicyDoc> =>
  services.projections.collection<PolicyDoc>(EMPRESAS_PROJECTION, COMPANY_POLICIES);

/** The company's own policy document at least at a write, or null when the write recorded nothing on the defaults. */
export const policyLatest = (scope: TenantScope, write: { revision: number; position: bigint | null }): Promise<PolicyDoc | null> =>
  write.revision < 0 ? policyModel.get(scope, scope.auth.tenantId) : policyModel.latest(scope, scope.auth.tenantId, write);
