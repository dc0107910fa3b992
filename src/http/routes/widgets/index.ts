// The Widgets group: the catalog of dashboard widgets, each widget's data from read models kept for it, the
// dashboards (per person and the company default) and their live streams.
import type { GroupModule } from '../../groupModule.js';
import { WIDGET_PROJECTIONS } from '../../../queries/widgets/widgetCatalog.js';
import { READ, TAG, WRITE } from './schemas.js';
import { widgetDataRoutes } from './widgetDataRoutes.js';
import { dashboardRoutes } from './dashboardRoutes.js';
import { panelRoutes } from './panelPage.js';

export const widgetsGroup: GroupModule = {
  tag: TAG,
  description:
    "Dashboards of the selected company: the widget catalog (each widget's permissions, parameters and data shape), each " +
    "widget's data as of a log position, per-person and company-default dashboards (If-Match, history) and their live streams.",
  permissions: [READ, WRITE],
  routes: [...widgetDataRoutes, ...dashboardRoutes, ...panelRoutes],
  projections: [...WIDGET_PROJECTIONS],
};
