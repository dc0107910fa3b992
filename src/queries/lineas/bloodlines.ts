// Queries over the bloodline read model (both kinds), with read-your-writes: a write waits for the projection, and
// folds the line's own stream when the bounded wait runs out.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import { streamName } from '../../stores/eventStore.js';
import { companyPolicy, type PolicyFacts } from '../empresas/companyPolicy.js';
import { BLOODLINES, LINEAS_PROJECTION } from '../../projections/lineas/lineasProjection.js';
import { bloodlineView, foldBloodline, type BloodlineDoc } from '../../projections/lineas/bloodlineDoc.js';
import { maxUsesOf, LINE_CATEGORIES } from '../../commands/lineas/bloodlineEvents.js';

export type LineKind = BloodlineDoc['lineType'];

export const bloodlines = (scope: TenantScope): Collection<BloodlineDoc> =>
  scope.services.projections.collection<BloodlineDoc>(LINEAS_PROJECTION, BLOODLINES);

const absent = (lineType: LineKind) => notFoundProblem(lineType === 'arterial' ? 'Arterial line not found' : 'Venous line not found');

/** A line of this kind of the caller's company, or 404 (another company's line, or a line of the other kind, is as absent). */
export async function bloodlineOr404(scope: TenantScope, lineType: LineKind, id: string): Promise<BloodlineDoc> {
  const doc = await bloodlines(scope).get(scope.auth.tenantId, id);
  if (!doc || doc.lineType !== lineType) throw absent(lineType);
  return doc;
}

/** The line at least at the write's revision: from the read model, or folded from its stream when the model lags. */
export async function bloodlineAfterWrite(
  scope: TenantScope,
  lineType: LineKind,
  id: string,
  result: { revision: number; position: bigint | null },
): Promise<BloodlineDoc> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      projections: [LINEAS_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const tenantId = scope.auth.tenantId;
  const doc = await bloodlines(scope).get(tenantId, id);
  if (doc && doc.lineType === lineType && doc.revision >= result.revision) return doc;
  let folded: BloodlineDoc | null = null;
  for (const e of await scope.services.events.readStream(streamName(tenantId, LINE_CATEGORIES[lineType], id)))
    folded = foldBloodline(folded, e);
  if (!folded) throw absent(lineType);
  return folded;
}

export interface BloodlineListQuery {
  status?: BloodlineDoc['status'];
  patientId?: string;
  limit: number;
  cursor?: string;
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
  const page = await bloodlines(scope).find(scope.auth.tenantId, filter, {
    sort: { receivedOn: -1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
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
  query: { margin: number; limit: number; cursor?: string },
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = { lineType, status: { $ne: 'discarded' }, patientId: { $exists: true }, usesLeft: { $lte: query.margin } };
  const page = await bloodlines(scope).find(scope.auth.tenantId, filter, {
    sort: { usesLeft: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map(bloodlineView), nextCursor: page.nextCursor };
}
