// Queries over the job positions read model, with read-your-writes: a write waits for the projection to apply its
// events, then reads; if the bounded wait runs out it folds the position's own stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import { streamName } from '../../stores/eventStore.js';
import { CARGOS_PROJECTION, JOB_POSITIONS } from '../../projections/cargos-laborales/cargosProjection.js';
import { foldJobPosition, jobPositionView, type JobPositionDoc } from '../../projections/cargos-laborales/jobPositionDoc.js';
import { JOB_POSITION_CATEGORY } from '../../commands/cargos-laborales/jobPositionEvents.js';

export const jobPositions = (scope: TenantScope): Collection<JobPositionDoc> =>
  scope.services.projections.collection<JobPositionDoc>(CARGOS_PROJECTION, JOB_POSITIONS);

/** A position of the caller's company, or 404 (another company's position is exactly as absent). */
export async function jobPositionOr404(scope: TenantScope, id: string): Promise<JobPositionDoc> {
  const doc = await jobPositions(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Job position not found');
  return doc;
}

/** The position at least at the write's revision: from the read model, or folded from its stream when the model lags. */
export async function jobPositionAfterWrite(
  scope: TenantScope,
  id: string,
  result: { revision: number; position: bigint | null },
): Promise<JobPositionDoc> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      projections: [CARGOS_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const tenantId = scope.auth.tenantId;
  const doc = await jobPositions(scope).get(tenantId, id);
  if (doc && doc.revision >= result.revision) return doc;
  let folded: JobPositionDoc | null = null;
  for (const e of await scope.services.events.readStream(streamName(tenantId, JOB_POSITION_CATEGORY, id)))
    folded = foldJobPosition(folded, e);
  if (!folded) throw notFoundProblem('Job position not found');
  return folded;
}

export interface JobPositionListQuery {
  status?: 'active' | 'inactive';
  limit: number;
  cursor?: string;
}

/** Positions by code, stable order with an opaque cursor. */
export async function listJobPositions(scope: TenantScope, query: JobPositionListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = query.status ? { status: query.status } : {};
  const page = await jobPositions(scope).find(scope.auth.tenantId, filter, {
    sort: { codeKey: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map(jobPositionView), nextCursor: page.nextCursor };
}
