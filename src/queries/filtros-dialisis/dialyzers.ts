// Queries over the dialyzer read model: the record model (get, or404, latest after a write), the list and the
// dialyzers in service.
import { LIMITS } from '../../limits.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { DIALYZERS, FILTROS_PROJECTION } from '../../projections/filtros-dialisis/filtrosProjection.js';
import { dialyzerView, foldDialyzer, type DialyzerDoc } from '../../projections/filtros-dialisis/dialyzerDoc.js';
import { DIALYZER_CATEGORY } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import { changedSince } from '../changedSince.js';

/** The dialyzer record: get, or404 and the read-after-write latest. */
export const dialyzerModel = recordModel<DialyzerDoc>({
  projection: FILTROS_PROJECTION,
  collection: DIALYZERS,
  category: DIALYZER_CATEGORY,
  fold: foldDialyzer,
  notFound: 'Dialyzer not found',
});
export const dialyzers = dialyzerModel.collection;

export interface DialyzerListQuery {
  patientId?: string;
  status?: DialyzerDoc['status'];
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** Dialyzers by serial, optionally of one patient and/or in one status; stable order with an opaque cursor. */
export async function listDialyzers(scope: TenantScope, query: DialyzerListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.patientId) filter.patientId = query.patientId;
  if (query.status) filter.status = query.status;
  const page = await dialyzers(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { serialKey: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(dialyzerView), nextCursor: page.nextCursor };
}

/** Dialyzers still in service (not discarded), optionally of one patient, bounded by the floor scan limit. */
export async function dialyzersInService(scope: TenantScope, patientId?: string): Promise<DialyzerDoc[]> {
  const filter: Filter = { status: { $in: ['in-stock', 'assigned', 'in-use', 'used', 'stored', 'quarantined'] } };
  if (patientId) filter.patientId = patientId;
  const page = await dialyzers(scope).find(scope.auth.tenantId, filter, {
    sort: { serialKey: 1 },
    limit: LIMITS.filtrosDialisis.floorScanMax,
  });
  return page.items;
}
