// Read model of the dashboards (per person and the company default) and the company's dashboard activity counter.
import { DASHBOARD_EVENT_TYPES } from '../../commands/widgets/dashboard/dashboardEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { ACTIVITY_ID, foldActivity, foldDashboard, type DashboardActivityDoc, type DashboardDoc } from './dashboardDoc.js';

export const DASHBOARDS_PROJECTION = 'widgets-dashboards';
export const DASHBOARDS = 'dashboards';
export const DASHBOARD_ACTIVITY = 'dashboardsActivity';

export const dashboardsProjection: Projection = {
  name: DASHBOARDS_PROJECTION,
  version: 1,
  collections: {
    [DASHBOARDS]: [{ keys: { tenantId: 1, scope: 1, ownerUserId: 1, id: 1 }, name: 'by_scope_owner' }],
    [DASHBOARD_ACTIVITY]: [],
  },
  eventTypes: DASHBOARD_EVENT_TYPES,
  handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    const id = event.streamName.slice(event.streamName.indexOf('-') + 1);
    const dashboard = applyFold<DashboardDoc>(tx, DASHBOARDS, tenantId, id, event, foldDashboard);
    const activity = () => applyFold<DashboardActivityDoc>(tx, DASHBOARD_ACTIVITY, tenantId, ACTIVITY_ID, event, foldActivity);
    if (dashboard === undefined) return activity();
    return dashboard.then(activity);
  },
};
