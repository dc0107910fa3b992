// The loader of the schedule's facts (type: src/commands/dialisis/schedule/scheduleFacts.ts): the company's calendar
// day and its companies, the policy, the plans in effect and the seats to check. Outside src/commands because it reads
// read models.
import type { ScheduleFacts } from '../../commands/dialisis/schedule/scheduleFacts.js';
import { isoWeekdayOf } from '../../commands/dialisis/schedule/shiftEvents.js';
import { LIMITS } from '../../limits.js';
import { readModelBehind } from '../../problems.js';
import type { AppServices } from '../../services.js';
import { companyDay } from '../../queries/empresas/companyCalendar.js';
import { companyPolicy } from '../../queries/empresas/companyPolicy.js';
import { awaitScheduleHead, plansInEffect } from '../../queries/dialisis/scheduleQueries.js';
import { shiftDaysWithUnscheduledSeats } from '../../queries/dialisis/scheduleOccupancy.js';
import { platformCollections } from '../../queries/platform/memberships.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

async function companyIds(services: AppServices): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const page = await platformCollections(services).companies.find(PLATFORM_DOCS, {}, { limit: LIMITS.pagination.maxLimit, after });
    ids.push(...page.items.map((c) => c.id));
    after = page.nextCursor;
  } while (after);
  return ids;
}

export function scheduleFactLoader(services: AppServices): ScheduleFacts {
  const scope = (tenantId: string) => ({ services, auth: { tenantId } });
  return {
    today: (tenantId, at) => companyDay(scope(tenantId), at),
    policy: (tenantId) => companyPolicy(services, tenantId),
    plansInEffect: async (tenantId, date, locationId) => {
      // The model must hold every plan written so far, or a plan just created would be missed.
      if (!(await awaitScheduleHead(scope(tenantId)))) throw readModelBehind();
      return plansInEffect(scope(tenantId), date, isoWeekdayOf(date), locationId);
    },
    companyIds: () => companyIds(services),
    unscheduledSeats: (tenantId, after, limit) => shiftDaysWithUnscheduledSeats(scope(tenantId), after, limit),
  };
}
