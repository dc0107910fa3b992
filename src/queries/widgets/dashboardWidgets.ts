// The dashboards' own widget: how many dashboards the company has and the company default's latest change, from the counter doc
// the dashboards projection keeps (one document read whatever the company's size).
import Type from 'typebox';
import { defineWidget, DisplayCounts, DisplayItems, DisplaySeries, widgetParams, type WidgetSet } from './widgetDefinition.js';
import { DASHBOARD_ACTIVITY, DASHBOARDS_PROJECTION, dashboardsProjection } from '../../projections/widgets/dashboardsProjection.js';
import { ACTIVITY_ID, type DashboardActivityDoc } from '../../projections/widgets/dashboardDoc.js';
import { DASHBOARD_CATEGORY } from '../../commands/widgets/dashboard/dashboardEvents.js';

const ActivityData = Type.Object(
  {
    personal: Type.Integer({ description: "People's own dashboards" }),
    companyDefault: Type.Boolean({ description: 'Whether the company has its default dashboard' }),
    lastChange: Type.Union([
      Type.Object(
        { dashboardId: Type.String(), title: Type.String(), at: Type.String({ format: 'date-time' }), by: Type.String() },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    counts: DisplayCounts,
    series: DisplaySeries,
    items: DisplayItems,
  },
  { additionalProperties: false },
);

export const dashboardActivityWidget = defineWidget({
  id: 'dashboard-activity',
  title: 'Dashboards in use',
  description: "The company's dashboards (personal ones counted, never named) and the company default's latest change.",
  permissions: [],
  params: widgetParams(),
  data: ActivityData,
  projections: [DASHBOARDS_PROJECTION],
  categories: [DASHBOARD_CATEGORY],
  async read(_params, ctx) {
    const collection = ctx.services.projections.collection<DashboardActivityDoc>(DASHBOARDS_PROJECTION, DASHBOARD_ACTIVITY);
    const doc = await collection.get(ctx.auth.tenantId, ACTIVITY_ID);
    const personal = doc?.person ?? 0;
    const lastChange = doc?.lastChange ?? null;
    return {
      personal,
      companyDefault: (doc?.company ?? 0) > 0,
      lastChange,
      counts: [
        { key: 'personal', label: 'Personal dashboards', value: personal },
        { key: 'company', label: 'Company default', value: doc?.company ?? 0 },
      ],
      series: [],
      items: lastChange
        ? [
            {
              id: lastChange.dashboardId,
              label: lastChange.title,
              detail: 'Latest change of the company default',
              date: lastChange.at.slice(0, 10),
            },
          ]
        : [],
    };
  },
});

export const dashboardWidgets: WidgetSet = { widgets: [dashboardActivityWidget], projections: [dashboardsProjection] };
