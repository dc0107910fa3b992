// Queries over the machines read model: the record model (get, or404, latest after a write), the view with the
// maintenance of now, and the list.
import { LIMITS } from '../../limits.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { MACHINES, MONITORES_PROJECTION } from '../../projections/monitores/monitoresProjection.js';
import { foldMachine, machineView, type MachineDoc } from '../../projections/monitores/machineDoc.js';
import { calibrationDue, maintenanceDue, planFor, type MaintenanceDue } from '../../commands/monitores/shared/startRules.js';
import { policyShown } from '../empresas/companyPolicy.js';
import { EMPRESAS_PROJECTION } from '../../projections/empresas/empresasProjection.js';
import { type CompanyPolicy } from '../../commands/empresas/shared/policySettings.js';
import { MACHINE_CATEGORY } from '../../commands/monitores/machineEvents.js';
import { changedSince } from '../changedSince.js';

/**
 * The machine record: get, or404, the read-after-write latest (its view adds the maintenance of now). Its view and list
 * date the maintenance under the projected policy: a read after a write waits for that projection too.
 */
export const machineModel = recordModel<MachineDoc>({
  projection: MONITORES_PROJECTION,
  collection: MACHINES,
  category: MACHINE_CATEGORY,
  fold: foldMachine,
  alsoAwait: [EMPRESAS_PROJECTION],
  notFound: 'Machine not found',
});
export const machines = machineModel.collection;

/** Next preventive maintenance of a machine under the company's plan for its model (retired machines have none). */
export function maintenanceOf(
  doc: MachineDoc,
  policy: CompanyPolicy,
  at: string,
): (MaintenanceDue & { everyHours: number | null; everyDays: number | null }) | null {
  if (doc.status === 'retired') return null;
  const plan = planFor(policy.maintenance, doc.model);
  return { ...maintenanceDue(doc, plan, at), everyHours: plan.preventiveEveryHours, everyDays: plan.preventiveEveryDays };
}

/** Next calibration of a machine under the company's plan for its model (retired machines have none). */
export function calibrationOf(
  doc: MachineDoc,
  policy: CompanyPolicy,
  at: string,
): (ReturnType<typeof calibrationDue> & { everyDays: number | null }) | null {
  if (doc.status === 'retired') return null;
  const everyDays = planFor(policy.maintenance, doc.model).calibrationEveryDays ?? null;
  return { ...calibrationDue(doc.calibrationBaseDate ?? doc.pmBaseDate, everyDays, at), everyDays };
}

/** The view of a machine with its next preventive maintenance as of now (under the policy as projected). */
export async function machineWithMaintenance(scope: TenantScope, doc: MachineDoc): Promise<Record<string, unknown>> {
  const { settings } = await policyShown(scope.services, scope.auth.tenantId);
  const at = scope.services.now().toISOString();
  return { ...machineView(doc), maintenance: maintenanceOf(doc, settings, at), calibration: calibrationOf(doc, settings, at) };
}

export interface MachineListQuery {
  status?: string;
  maintenanceDueInDays?: number;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

const addDays = (at: string, days: number): string => new Date(Date.parse(at) + days * 86_400_000).toISOString().slice(0, 10);

/** What a machine list page is made of besides the machines: the company policy's plans and the instant of now. */
export interface MachineListFacts {
  settings: CompanyPolicy;
  at: string;
}

/**
 * The facts of a page now, and what names them: the UTC day (all a due date compares) and the revision of the policy as
 * projected (kept while unchanged: a page served again reads no store).
 */
export async function machineListFacts(scope: TenantScope): Promise<{ key: string; value: MachineListFacts }> {
  const { revision, settings } = await policyShown(scope.services, scope.auth.tenantId);
  const at = scope.services.now().toISOString();
  return { key: `${at.slice(0, 10)} ${revision}`, value: { settings, at } };
}

/**
 * Machines by code, optionally of one status. With maintenanceDueInDays only those whose preventive maintenance falls due within
 * that many days (or is already overdue, by hours or days), all in one page: the plan is the policy of now, not stored.
 */
export async function listMachines(
  scope: TenantScope,
  query: MachineListQuery,
  facts?: MachineListFacts,
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = { ...(query.status ? { status: query.status } : {}), ...changedSince(query.updatedSince) };
  const tenantId = scope.auth.tenantId;
  const { settings, at } = facts ?? (await machineListFacts(scope)).value;
  const withDue = (doc: MachineDoc) => ({
    ...machineView(doc),
    maintenance: maintenanceOf(doc, settings, at),
    calibration: calibrationOf(doc, settings, at),
  });
  if (query.maintenanceDueInDays === undefined) {
    const page = await machines(scope).find(tenantId, filter, { sort: { codeKey: 1 }, limit: query.limit, after: query.cursor ?? null });
    return { items: page.items.map(withDue), nextCursor: page.nextCursor };
  }
  const horizon = addDays(at, query.maintenanceDueInDays);
  const due: Record<string, unknown>[] = [];
  let after: string | null = null;
  for (let scanned = 0; scanned < LIMITS.monitores.floorScanMax;) {
    const page = await machines(scope).find(tenantId, filter, { sort: { codeKey: 1 }, limit: LIMITS.pagination.maxLimit, after });
    for (const doc of page.items) {
      const pm = maintenanceOf(doc, settings, at);
      if (pm && (pm.overdue || (pm.dueDate !== null && pm.dueDate <= horizon))) due.push(withDue(doc));
    }
    scanned += page.items.length;
    if (!page.nextCursor) break;
    after = page.nextCursor;
  }
  return { items: due, nextCursor: null };
}
