// Read model of the schedule: shifts, standing plans, and the seats taken in each shift on each date.
import { SHIFT_EVENT_TYPES } from '../../commands/dialisis/schedule/shiftEvents.js';
import { STANDING_PLAN_EVENT_TYPES } from '../../commands/dialisis/schedule/standingPlanEvents.js';
import { SHIFT_DAY_EVENT_TYPES } from '../../commands/dialisis/schedule/shiftDayEvents.js';
import type { ScheduledData } from '../../commands/dialisis/session/sessionEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream } from '../../stores/eventStore.js';
import { confirmSeat, foldPlan, foldShift, foldShiftDay, type PlanDoc, type ShiftDayDoc, type ShiftDoc } from './scheduleDocs.js';

export const SCHEDULE_PROJECTION = 'dialisisSchedule';
export const SHIFTS = 'shifts';
export const PLANS = 'standingPlans';
export const SHIFT_DAYS = 'shiftDays';

const SHIFT_TYPES = new Set<string>(SHIFT_EVENT_TYPES);
const PLAN_TYPES = new Set<string>(STANDING_PLAN_EVENT_TYPES);

export const scheduleProjection: Projection = {
  name: SCHEDULE_PROJECTION,
  version: 1,
  collections: {
    [SHIFTS]: [
      { keys: { tenantId: 1, sortName: 1, id: 1 }, name: 'by_name' },
      { keys: { tenantId: 1, locationId: 1, sortName: 1, id: 1 }, name: 'by_location_name' },
    ],
    [PLANS]: [
      { keys: { tenantId: 1, patientId: 1, effectiveFrom: 1, id: 1 }, name: 'by_patient' },
      { keys: { tenantId: 1, weekdays: 1, effectiveFrom: 1, id: 1 }, name: 'by_weekday' },
    ],
    [SHIFT_DAYS]: [{ keys: { tenantId: 1, unscheduled: 1, id: 1 }, name: 'by_unscheduled' }],
  },
  eventTypes: [...SHIFT_EVENT_TYPES, ...STANDING_PLAN_EVENT_TYPES, ...SHIFT_DAY_EVENT_TYPES, 'SessionScheduled'],
  handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    if (SHIFT_TYPES.has(event.type))
      return applyFold<ShiftDoc>(tx, SHIFTS, tenantId, aggregateIdOfStream(event.streamName), event, foldShift);
    if (PLAN_TYPES.has(event.type)) {
      return applyFold<PlanDoc>(tx, PLANS, tenantId, (event.data as { planId: string }).planId, event, foldPlan);
    }
    if (event.type === 'SessionScheduled') {
      const { shiftId, date } = event.data as ScheduledData;
      return applyFold<ShiftDayDoc>(tx, SHIFT_DAYS, tenantId, `${shiftId}_${date}`, event, confirmSeat);
    }
    return applyFold<ShiftDayDoc>(tx, SHIFT_DAYS, tenantId, aggregateIdOfStream(event.streamName), event, foldShiftDay);
  },
};
