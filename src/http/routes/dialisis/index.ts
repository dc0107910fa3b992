// The Dialisis group: the daily dialysis record, from the schedule and the prescription to the signed session sheet.
import type { GroupModule } from '../../groupModule.js';
import { DIALISIS_PERMISSIONS, TAG } from './permissions.js';
import { sessionsProjection } from '../../../projections/dialisis/sessionsProjection.js';
import { prescriptionsProjection } from '../../../projections/dialisis/prescriptionsProjection.js';
import { sessionConsequences } from '../../../processes/sessionConsequences.js';
import { sessionPayer } from '../../../processes/sessionPayer.js';
import { sessionSupplies } from '../../../processes/sessionSupplies.js';
import { prescriptionRoutes } from './prescriptionRoutes.js';
import { dialisisPeriodicTasks } from '../../../facts/dialisis/index.js';
import { scheduleProjection } from '../../../projections/dialisis/scheduleProjection.js';
import { planRoutes } from './schedulePlanRoutes.js';
import { shiftRoutes } from './scheduleRoutes.js';
import { scheduleSessionRoutes } from './scheduleSessionRoutes.js';
import { reportRoutes } from './reportRoutes.js';
import { sessionReadRoutes } from './sessionReadRoutes.js';
import { sessionWriteRoutes } from './sessionWriteRoutes.js';
import { startRoute } from './startRoute.js';
import { machineChangeRoute } from './machineChangeRoute.js';
import { sheetRoute } from './sheetRoute.js';

export const dialisisGroup: GroupModule = {
  tag: TAG,
  description:
    'The daily dialysis record of the selected company: shifts and standing plans, the day schedule, versioned prescriptions, ' +
    'the session from check-in to the physician validation (pre, intradialytic readings, complications, medications, post, ' +
    'machine safety checks), the start interlocks on machine, dialyzer and bloodlines, derived adequacy values, alerts and the ' +
    'printable session sheet.',
  permissions: DIALISIS_PERMISSIONS,
  routes: [
    ...shiftRoutes,
    ...planRoutes,
    ...scheduleSessionRoutes,
    ...prescriptionRoutes,
    ...sessionReadRoutes,
    ...sessionWriteRoutes,
    startRoute(),
    machineChangeRoute(),
    sheetRoute,
    ...reportRoutes,
  ],
  projections: [sessionsProjection, prescriptionsProjection, scheduleProjection],
  processes: [sessionConsequences, sessionPayer, sessionSupplies],
  periodicTasks: dialisisPeriodicTasks,
};
