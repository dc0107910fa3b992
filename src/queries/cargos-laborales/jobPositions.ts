// Queries over the job positions read model: the record model (get, or404, latest after a write) and the list.
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { CARGOS_PROJECTION, JOB_POSITIONS } from '../../projections/cargos-laborales/cargosProjection.js';
import { foldJobPosition, jobPositionView, type JobPositionDoc } from '../../projections/cargos-laborales/jobPositionDoc.js';
import { JOB_POSITION_CATEGORY } from '../../commands/cargos-laborales/jobPositionEvents.js';
import { changedSince } from '../changedSince.js';

/** The job position record: get, or404 and the read-after-write latest. */
export const jobPositionModel = recordModel<JobPositionDoc>({
  projection: CARGOS_PROJECTION,
  collection: JOB_POSITIONS,
  category: JOB_POSITION_CATEGORY,
  fold: foldJobPosition,
  notFound: 'Job position not found',
});
export const jobPositions = jobPositionModel.collection;

export interface JobPositionListQuery {
  status?: 'active' | 'inactive';
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** Positions by code, stable order with an opaque cursor. */
export async function listJobPositions(scope: TenantScope, query: JobPositionListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = query.status ? { status: query.status } : {};
  const page = await jobPositions(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { codeKey: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(jobPositionView), nextCursor: page.nextCursor };
}
