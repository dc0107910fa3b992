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
  version: 2, // 2: the activity's lastChange names the company default only
  collections: {
    [DASHBOARDS]: [{ keys: { tenantId: 1, scope: 1, ownerUserId: 1, id: 1 }, name: 'by_scope_owner' }],
    [DASHBOARD_ACTIVITY]: [],
  },
  eventTypes: DASHBOARD_EVENT_TYPES,
  handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    const id = event.streamName.slice(event.streamName.indexOf('-') + 1);
    const dashboard = applyFold<DashboardDoc>(tx, DASHBOARDS, tenantId, id, event, foldDashboard);
    // The activity counter needs the dashboard's scope (a layout save does not carry it): read after the fold above.
    const count = (doc: DashboardDoc | null) =>
      applyFold<DashboardActivityDoc>(tx, DASHBOARD_ACTIVITY, tenantId, ACTIVITY_ID, event, (current, recorded) =>
        foldActivity(current, recorded, doc?.scope ?? 'person'),
      );
    const activity = () => {
      const peeked = tx.peek?.<DashboardDoc>(DASHBOARDS, tenantId, id);
      return peeked !== undefined ? count(peeked) : tx.get<DashboardDoc>(DASHBOARDS, tenantId, id).then(count);
    };
    if (dashboard === undefined) return activity();
    return dashboard.then(activity);
  },
};
