// Queries over the bloodline read model (both kinds): one record model per kind (get, or404, latest after a write),
// the list and the floor queries.
import { LIMITS } from '../../limits.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel, type RecordModel } from '../recordModel.js';
import { companyPolicy, type PolicyFacts } from '../empresas/companyPolicy.js';
import { BLOODLINES, LINEAS_PROJECTION } from '../../projections/lineas/lineasProjection.js';
import { bloodlineView, foldBloodline, type BloodlineDoc } from '../../projections/lineas/bloodlineDoc.js';
import { maxUsesOf, LINE_CATEGORIES } from '../../commands/lineas/bloodlineEvents.js';
import { changedSince } from '../changedSince.js';

export type LineKind = BloodlineDoc['lineType'];

/** The line record of each kind: get, or404 and the read-after-write latest (a line of the other kind is as absent). */
const lineModel = (lineType: LineKind): RecordModel<BloodlineDoc> =>
  recordModel<BloodlineDoc>({
    projection: LINEAS_PROJECTION,
    collection: BLOODLINES,
    category: LINE_CATEGORIES[lineType],
    fold: foldBloodline,
    notFound: lineType === 'arterial' ? 'Arterial line not found' : 'Venous line not found',
    where: (doc) => doc.lineType === lineType,
  });
export const bloodlineModels: Record<LineKind, RecordModel<BloodlineDoc>> = {
  arterial: lineModel('arterial'),
  venous: lineModel('venous'),
};

/** Both kinds of line share one collection. */
export const bloodlines = bloodlineModels.arterial.collection;

export interface BloodlineListQuery {
  status?: BloodlineDoc['status'];
  patientId?: string;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** Lines of one kind, newest reception first, stable order with an opaque cursor. */
export async function listBloodlines(
  scope: TenantScope,
  lineType: LineKind,
  query: BloodlineListQuery,
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {
    lineType,
    ...(query.status ? { status: query.status } : {}),
    ...(query.patientId ? { patientId: query.patientId } : {}),
  };
  const page = await bloodlines(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { receivedOn: -1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(bloodlineView), nextCursor: page.nextCursor };
}

/** Why a line may not be used in the next session (empty: ready). */
export type NotReadyReason =
  'in-use-by-another-session' | 'awaiting-reprocessing' | 'max-uses-reached' | 'residual-test-missing' | 'residual-test-positive';

/** The patient's lines of one kind that are not discarded, each with whether it is ready for the next session and why not. */
export async function readyBloodlines(
  scope: TenantScope,
  lineType: LineKind,
  patientId: string,
  given?: PolicyFacts,
): Promise<{ policyRevision: number; items: { line: Record<string, unknown>; ready: boolean; reasons: NotReadyReason[] }[] }> {
  const { revision, settings } = given ?? (await companyPolicy(scope.services, scope.auth.tenantId));
  const page = await bloodlines(scope).find(
    scope.auth.tenantId,
    { lineType, patientId, status: { $ne: 'discarded' } },
    { sort: { receivedOn: -1 }, limit: LIMITS.bloodlines.readyListMax },
  );
  const items = page.items.map((doc) => {
    const reasons: NotReadyReason[] = [];
    // In use with a reservation: a running session holds it; without one: used, not reprocessed since.
    if (doc.reservation) reasons.push('in-use-by-another-session');
    else if (doc.status === 'in-use') reasons.push('awaiting-reprocessing');
    // The policy in force now decides: a company that disabled reuse makes a used line spent.
    if (doc.uses >= maxUsesOf(doc.reusable, settings.bloodlineReuse)) reasons.push('max-uses-reached');
    // A reprocessed line goes into a session only after a negative residual germicide test (the claim also checks the dwell).
    if (doc.status === 'stored' && doc.residualTest !== 'negative') {
      reasons.push(doc.residualTest === 'positive' ? 'residual-test-positive' : 'residual-test-missing');
    }
    return { line: bloodlineView(doc), ready: reasons.length === 0, reasons };
  });
  return { policyRevision: revision, items };
}

/** Lines of one kind, not discarded, with at most `margin` uses left. */
export async function bloodlinesNearMaximum(
  scope: TenantScope,
  lineType: LineKind,
  query: { margin: number; limit: number; cursor?: string; updatedSince?: string },
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = { lineType, status: { $ne: 'discarded' }, patientId: { $exists: true }, usesLeft: { $lte: query.margin } };
  const page = await bloodlines(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { usesLeft: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(bloodlineView), nextCursor: page.nextCursor };
}
