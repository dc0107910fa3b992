// Queries over the dashboards read model: the record model (get, or404, latest after a write), what a person may see
// (the company default and their own; another person's dashboard is as absent as another company's) and the list.
import type { TenantScope } from '../tenantScope.js';
import type { Page } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { recordModel } from '../recordModel.js';
import { changedSince } from '../changedSince.js';
import { DASHBOARDS, DASHBOARDS_PROJECTION } from '../../projections/widgets/dashboardsProjection.js';
import { dashboardView, foldDashboard, type DashboardDoc } from '../../projections/widgets/dashboardDoc.js';
import { DASHBOARD_CATEGORY } from '../../commands/widgets/dashboard/dashboardEvents.js';
import { mayRead, mayReadWith, widgetById } from './widgetCatalog.js';

export const NO_DASHBOARD = 'Dashboard not found';

/** The dashboard record: get, or404 and the read-after-write latest. */
export const dashboardModel = recordModel<DashboardDoc>({
  projection: DASHBOARDS_PROJECTION,
  collection: DASHBOARDS,
  category: DASHBOARD_CATEGORY,
  fold: foldDashboard,
  notFound: NO_DASHBOARD,
});

/** Whether a reader (a person, or a program: it sees only the company default) sees the dashboard. */
export const visibleTo = (doc: DashboardDoc, userId: string): boolean => doc.scope === 'company' || doc.ownerUserId === userId;

/** The dashboard if the reader sees it, else 404 (another person's and another company's alike). */
export async function visibleDashboard(scope: TenantScope, userId: string, id: string): Promise<DashboardDoc> {
  // A dashboard not projected yet (written a moment ago) is read from its stream: never a 404 for one that exists.
  const doc = (await dashboardModel.get(scope, id)) ?? (await dashboardModel.folded(scope, id));
  if (!doc || !visibleTo(doc, userId)) throw notFoundProblem(NO_DASHBOARD);
  return doc;
}

/** Whether a reader holding `permissions` may read a widget of the catalog. */
export const widgetReadable =
  (permissions: ReadonlySet<string>) =>
  (widgetId: string): boolean => {
    const widget = widgetById(widgetId);
    return widget !== undefined && mayRead(widget, permissions);
  };

/** The dashboard as the reader sees it: every panel marked readable or not (its widget, with the panel's parameters). */
export const viewFor = (doc: DashboardDoc, permissions: ReadonlySet<string>): Record<string, unknown> =>
  dashboardView(doc, (panel) => {
    const widget = widgetById(panel.widgetId);
    return widget !== undefined && mayReadWith(widget, permissions, panel.params);
  });

/** The company default first, then the reader's own. */
export async function listDashboards(
  scope: TenantScope,
  reader: { userId: string; permissions: ReadonlySet<string> },
  query: { limit: number; cursor?: string; updatedSince?: string },
): Promise<Page<Record<string, unknown>>> {
  const page = await dashboardModel
    .collection(scope)
    .find(
      scope.auth.tenantId,
      { $or: [{ scope: 'company' }, { scope: 'person', ownerUserId: reader.userId }], ...changedSince(query.updatedSince) },
      { sort: { scope: 1 }, limit: query.limit, after: query.cursor ?? null },
    );
  return { items: page.items.map((doc) => viewFor(doc, reader.permissions)), nextCursor: page.nextCursor };
}

/** The company default, if any (one per company). */
export async function companyDefault(scope: TenantScope): Promise<DashboardDoc | null> {
  return dashboardModel.collection(scope).findOne(scope.auth.tenantId, { scope: 'company' });
}
