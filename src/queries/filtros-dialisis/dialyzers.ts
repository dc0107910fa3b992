// Queries over the dialyzer read model, with read-your-writes: a write waits for the projection to apply its events,
// then reads; if the bounded wait runs out it folds the dialyzer's own stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import { streamName } from '../../stores/eventStore.js';
import { DIALYZERS, FILTROS_PROJECTION } from '../../projections/filtros-dialisis/filtrosProjection.js';
import { dialyzerView, foldDialyzer, type DialyzerDoc } from '../../projections/filtros-dialisis/dialyzerDoc.js';
import { DIALYZER_CATEGORY } from '../../commands/filtros-dialisis/dialyzerEvents.js';

export const dialyzers = (scope: TenantScope): Collection<DialyzerDoc> =>
  scope.services.projections.collection<DialyzerDoc>(FILTROS_PROJECTION, DIALYZERS);

/** A dialyzer of the caller's company, or 404 (another company's dialyzer is exactly as absent). */
export async function dialyzerOr404(scope: TenantScope, id: string): Promise<DialyzerDoc> {
  const doc = await dialyzers(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Dialyzer not found');
  return doc;
}

/** The dialyzer at least at the write's revision: from the read model, or folded from its stream when the model lags. */
export async function dialyzerAfterWrite(
  scope: TenantScope,
  id: string,
  result: { revision: number; position: bigint | null },
): Promise<DialyzerDoc> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      projections: [FILTROS_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const tenantId = scope.auth.tenantId;
  const doc = await dialyzers(scope).get(tenantId, id);
  if (doc && doc.revision >= result.revision) return doc;
  let folded: DialyzerDoc | null = null;
  for (const e of await scope.services.events.readStream(streamName(tenantId, DIALYZER_CATEGORY, id))) folded = foldDialyzer(folded, e);
  if (!folded) throw notFoundProblem('Dialyzer not found');
  return folded;
}

export interface DialyzerListQuery {
  patientId?: string;
  status?: DialyzerDoc['status'];
  limit: number;
  cursor?: string;
}

/** Dialyzers by serial, optionally of one patient and/or in one status; stable order with an opaque cursor. */
export async function listDialyzers(scope: TenantScope, query: DialyzerListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.patientId) filter.patientId = query.patientId;
  if (query.status) filter.status = query.status;
  const page = await dialyzers(scope).find(scope.auth.tenantId, filter, {
    sort: { serialKey: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
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
