// Queries over the schedule read model: shifts, standing plans, and which plans are in effect on a date.
// Shifts and plans are record models (reads after a write wait for the projection, else fold the stream).
import { LIMITS } from '../../limits.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { PLANS, SCHEDULE_PROJECTION, SHIFTS } from '../../projections/dialisis/scheduleProjection.js';
import { foldPlan, foldShift, planView, shiftView, type PlanDoc, type ShiftDoc } from '../../projections/dialisis/scheduleDocs.js';
import { SHIFT_CATEGORY } from '../../commands/dialisis/schedule/shiftEvents.js';
import { PLAN_CATEGORY } from '../../commands/dialisis/schedule/standingPlanEvents.js';
import { changedSince } from '../changedSince.js';

/** The shift record: get, or404 and the read-after-write latest. */
export const shiftModel = recordModel<ShiftDoc>({
  projection: SCHEDULE_PROJECTION,
  collection: SHIFTS,
  category: SHIFT_CATEGORY,
  fold: foldShift,
  notFound: 'Shift not found',
});
export const shifts = shiftModel.collection;

/** The standing plan record, kept in its patient's plan stream (a write names that stream: `streamId`). */
export const planModel = recordModel<PlanDoc>({
  projection: SCHEDULE_PROJECTION,
  collection: PLANS,
  category: PLAN_CATEGORY,
  fold: (doc, event, planId) => ((event.data as { planId?: string }).planId === planId ? foldPlan(doc, event) : doc),
  notFound: 'Standing plan not found',
});
export const plans = planModel.collection;

/** Waits (bounded) until the schedule read model has every event of this company written so far. */
export async function awaitScheduleHead(scope: TenantScope): Promise<boolean> {
  const head = await scope.services.events.headPosition(scope.auth.tenantId);
  return scope.services.projections.waitFor(head, {
    projections: [SCHEDULE_PROJECTION],
    timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    tenant: scope.auth.tenantId,
  });
}

export { planView, shiftView };

export interface ShiftListQuery {
  locationId?: string;
  status?: 'active' | 'retired';
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listShifts(scope: TenantScope, query: ShiftListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {
    ...(query.locationId ? { locationId: query.locationId } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const page = await shifts(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { sortName: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(shiftView), nextCursor: page.nextCursor };
}

export interface PlanListQuery {
  patientId?: string;
  shiftId?: string;
  status?: 'active' | 'ended';
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listPlans(scope: TenantScope, query: PlanListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {
    ...(query.patientId ? { patientId: query.patientId } : {}),
    ...(query.shiftId ? { shiftId: query.shiftId } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const page = await plans(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { effectiveFrom: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(planView), nextCursor: page.nextCursor };
}

/** Every plan in effect on `date` (its ISO weekday), optionally of one location: all pages. */
export async function plansInEffect(scope: TenantScope, date: string, weekday: number, locationId?: string): Promise<PlanDoc[]> {
  const filter: Filter = {
    weekdays: weekday,
    effectiveFrom: { $lte: date },
    $or: [{ effectiveTo: null }, { effectiveTo: { $gte: date } }],
    ...(locationId ? { locationId } : {}),
  };
  const found: PlanDoc[] = [];
  let after: string | null = null;
  do {
    const page: Page<PlanDoc> = await plans(scope).find(scope.auth.tenantId, filter, {
      sort: { effectiveFrom: 1 },
      limit: LIMITS.pagination.maxLimit,
      after,
    });
    found.push(...page.items);
    after = page.nextCursor;
  } while (after);
  return found;
}
