// The Dialisis group: the daily dialysis record, from the schedule and the prescription to the signed session sheet.
import type { GroupModule } from '../../groupModule.js';
import { scheduleProjection } from '../../../projections/dialisis/scheduleProjection.js';
import { DIALISIS_PERMISSIONS, TAG } from './permissions.js';
import { shiftRoutes } from './scheduleRoutes.js';
import { planRoutes } from './schedulePlanRoutes.js';
import { scheduleSessionRoutes } from './scheduleSessionRoutes.js';

export const dialisisGroup: GroupModule = {
  tag: TAG,
  description:
    'The daily dialysis record of the selected company: shifts and standing plans, the day schedule, versioned prescriptions, ' +
    'the session from check-in to the physician validation (pre, intradialytic readings, complications, medications, post, ' +
    'machine safety checks), the start interlocks on machine, dialyzer and bloodlines, derived adequacy values, alerts and the ' +
    'printable session sheet.',
  permissions: DIALISIS_PERMISSIONS,
  routes: [...shiftRoutes, ...planRoutes, ...scheduleSessionRoutes],
  projections: [scheduleProjection],
};
