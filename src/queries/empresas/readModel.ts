// Access to the Empresas read models, with read-your-writes: a write waits (bounded) for the projection to apply
// its events; if the wait runs out, the record's own stream is folded instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import { streamName, type RecordedEvent } from '../../stores/eventStore.js';
import type { Collection } from '../../stores/readStore.js';
import type { TenantScope } from '../tenantScope.js';
import type { ReadServices } from '../../readServices.js';
import { COMPANY_POLICIES, EMPRESAS_PROJECTION, LOCATIONS } from '../../projections/empresas/empresasProjection.js';
import { foldLocation, type LocationDoc } from '../../projections/empresas/locationDoc.js';
import { foldPolicy, type PolicyDoc } from '../../projections/empresas/policyDoc.js';
import { POLICY_CATEGORY } from '../../commands/empresas/policyEvents.js';
import { LOCATION_CATEGORY } from '../../commands/empresas/locationEvents.js';

/** Where a write left its stream. */
export interface WriteOutcome {
  revision: number;
  position: bigint | null;
}

export const policies = (services: ReadServices): Collection<PolicyDoc> =>
  services.projections.collection<PolicyDoc>(EMPRESAS_PROJECTION, COMPANY_POLICIES);

export const locations = (scope: TenantScope): Collection<LocationDoc> =>
  scope.services.projections.collection<LocationDoc>(EMPRESAS_PROJECTION, LOCATIONS);

async function awaitWrite(scope: TenantScope, position: bigint | null): Promise<void> {
  if (position === null) return;
  await scope.services.projections.waitFor(position, { projections: [EMPRESAS_PROJECTION], timeoutMs: LIMITS.readYourWrites.maxWaitMs });
}

async function foldStream<T>(scope: TenantScope, category: string, id: string, fold: (doc: T | null, e: RecordedEvent) => T | null) {
  let doc: T | null = null;
  for (const e of await scope.services.events.readStream(streamName(scope.auth.tenantId, category, id))) doc = fold(doc, e);
  return doc;
}

/** The company's policy document at least at the write's revision; null while only the defaults apply. */
export async function policyAfterWrite(scope: TenantScope, result: WriteOutcome): Promise<PolicyDoc | null> {
  await awaitWrite(scope, result.position);
  const tenantId = scope.auth.tenantId;
  const doc = await policies(scope.services).get(tenantId, tenantId);
  if (result.revision < 0 || (doc && doc.revision >= result.revision)) return doc;
  return foldStream<PolicyDoc>(scope, POLICY_CATEGORY, tenantId, foldPolicy);
}

/** The location at least at the write's revision. */
export async function locationAfterWrite(scope: TenantScope, locationId: string, result: WriteOutcome): Promise<LocationDoc> {
  await awaitWrite(scope, result.position);
  const doc = await locations(scope).get(scope.auth.tenantId, locationId);
  if (doc && doc.revision >= result.revision) return doc;
  const folded = await foldStream<LocationDoc>(scope, LOCATION_CATEGORY, locationId, foldLocation);
  if (!folded) throw notFoundProblem('Location not found');
  return folded;
}

/** A location of the caller's company, or 404 (another company's location is exactly as absent). */
export async function locationOr404(scope: TenantScope, locationId: string): Promise<LocationDoc> {
  const doc = await locations(scope).get(scope.auth.tenantId, locationId);
  if (!doc) throw notFoundProblem('Location not found');
  return doc;
}
