// Queries over the schedule read model: shifts, standing plans, and which plans are in effect on a date.
// Reads after a write wait for the projection to apply it; if the bounded wait runs out they fold the stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import { streamName, type RecordedEvent } from '../../stores/eventStore.js';
import { PLANS, SCHEDULE_PROJECTION, SHIFTS } from '../../projections/dialisis/scheduleProjection.js';
import { foldPlan, foldShift, planView, shiftView, type PlanDoc, type ShiftDoc } from '../../projections/dialisis/scheduleDocs.js';
import { SHIFT_CATEGORY } from '../../commands/dialisis/schedule/shiftEvents.js';
import { PLAN_CATEGORY } from '../../commands/dialisis/schedule/standingPlanEvents.js';

export const shifts = (scope: TenantScope): Collection<ShiftDoc> =>
  scope.services.projections.collection<ShiftDoc>(SCHEDULE_PROJECTION, SHIFTS);
export const plans = (scope: TenantScope): Collection<PlanDoc> =>
  scope.services.projections.collection<PlanDoc>(SCHEDULE_PROJECTION, PLANS);

/** A shift of the caller's company, or 404 (another company's shift is exactly as absent). */
export async function shiftOr404(scope: TenantScope, id: string): Promise<ShiftDoc> {
  const doc = await shifts(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Shift not found');
  return doc;
}

export async function planOr404(scope: TenantScope, id: string): Promise<PlanDoc> {
  const doc = await plans(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Standing plan not found');
  return doc;
}

/** Waits (bounded) until the schedule read model has every event of this company written so far. */
export async function awaitScheduleHead(scope: TenantScope): Promise<boolean> {
  const head = await scope.services.events.headPosition(scope.auth.tenantId);
  return scope.services.projections.waitFor(head, {
    projections: [SCHEDULE_PROJECTION],
    timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    tenant: scope.auth.tenantId,
  });
}

async function afterWrite<T extends { revision: number }>(
  scope: TenantScope,
  position: bigint | null,
  read: () => Promise<T | null>,
  fold: (events: RecordedEvent[]) => T | null,
  stream: string,
): Promise<T> {
  if (position !== null) {
    await scope.services.projections.waitFor(position, { projections: [SCHEDULE_PROJECTION], timeoutMs: LIMITS.readYourWrites.maxWaitMs });
  }
  const doc = await read();
  const folded = fold(await scope.services.events.readStream(stream));
  if (doc && (!folded || doc.revision >= folded.revision)) return doc;
  if (!folded) throw notFoundProblem('Not found');
  return folded;
}

export const shiftAfterWrite = (scope: TenantScope, id: string, position: bigint | null): Promise<ShiftDoc> =>
  afterWrite(
    scope,
    position,
    () => shifts(scope).get(scope.auth.tenantId, id),
    (events) => events.reduce<ShiftDoc | null>(foldShift, null),
    streamName(scope.auth.tenantId, SHIFT_CATEGORY, id),
  );

export const planAfterWrite = (
  scope: TenantScope,
  plan: { planId: string; patientId: string },
  position: bigint | null,
): Promise<PlanDoc> =>
  afterWrite(
    scope,
    position,
    () => plans(scope).get(scope.auth.tenantId, plan.planId),
    (events) => events.filter((e) => (e.data as { planId?: string }).planId === plan.planId).reduce<PlanDoc | null>(foldPlan, null),
    streamName(scope.auth.tenantId, PLAN_CATEGORY, plan.patientId),
  );

export { planView, shiftView };

export interface ShiftListQuery {
  locationId?: string;
  status?: 'active' | 'retired';
  limit: number;
  cursor?: string;
}

export async function listShifts(scope: TenantScope, query: ShiftListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {
    ...(query.locationId ? { locationId: query.locationId } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const page = await shifts(scope).find(scope.auth.tenantId, filter, {
    sort: { sortName: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map(shiftView), nextCursor: page.nextCursor };
}

export interface PlanListQuery {
  patientId?: string;
  shiftId?: string;
  status?: 'active' | 'ended';
  limit: number;
  cursor?: string;
}

export async function listPlans(scope: TenantScope, query: PlanListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {
    ...(query.patientId ? { patientId: query.patientId } : {}),
    ...(query.shiftId ? { shiftId: query.shiftId } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const page = await plans(scope).find(scope.auth.tenantId, filter, {
    sort: { effectiveFrom: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
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
