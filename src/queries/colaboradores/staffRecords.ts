// Access to the staff read model, with read-your-writes: a write waits for the projection to apply its events, then
// reads; if the bounded wait runs out it folds the record's own stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection } from '../../stores/readStore.js';
import { streamName } from '../../stores/eventStore.js';
import { COLABORADORES_PROJECTION, STAFF } from '../../projections/colaboradores/colaboradoresProjection.js';
import { foldStaff, type StaffDoc } from '../../projections/colaboradores/staffDoc.js';
import { STAFF_CATEGORY } from '../../commands/colaboradores/staffEvents.js';

export const staffRecords = (scope: TenantScope): Collection<StaffDoc> =>
  scope.services.projections.collection<StaffDoc>(COLABORADORES_PROJECTION, STAFF);

/** A staff record of the caller's company, or 404 (another company's record is exactly as absent). */
export async function staffOr404(scope: TenantScope, id: string): Promise<StaffDoc> {
  const doc = await staffRecords(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Staff member not found');
  return doc;
}

export async function staffAfterWrite(
  scope: TenantScope,
  id: string,
  result: { revision: number; position: bigint | null },
): Promise<StaffDoc> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      projections: [COLABORADORES_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const tenantId = scope.auth.tenantId;
  const doc = await staffRecords(scope).get(tenantId, id);
  if (doc && doc.revision >= result.revision) return doc;
  let folded: StaffDoc | null = null;
  for (const e of await scope.services.events.readStream(streamName(tenantId, STAFF_CATEGORY, id))) folded = foldStaff(folded, e);
  if (!folded) throw notFoundProblem('Staff member not found');
  return folded;
}
