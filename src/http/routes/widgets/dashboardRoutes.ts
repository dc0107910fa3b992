// /widgets/tableros: the dashboards a person sees (the company default and their own, created on first use by copying
// the default), layout saves with If-Match, the company default (widgets:write), history and the live stream.
import { route, type RequestContext, type RouteDecl, type TenantRequestContext } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { forbidden } from '../../../problems.js';
import { peopleOnly } from '../../routeAuth.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { recordKit } from '../shared/recordRoutes.js';
import { commandCtx, IF_MATCH_PROBLEMS, ok, READ_HEADERS, withFieldPointers } from '../shared/recordSupport.js';
import { IdParams } from '../shared/fieldSchemas.js';
import {
  createCompanyDashboard,
  createPersonDashboard,
  personDashboardId,
  saveDashboardLayout,
} from '../../../commands/widgets/dashboard/dashboardWrites.js';
import { companyDefault, dashboardModel, listDashboards, viewFor, visibleDashboard } from '../../../queries/widgets/dashboards.js';
import { builtInLayout, catalogPolicy } from './dashboardPolicy.js';
import { readerPermissions } from './widgetReader.js';
import { CreateCompanyDashboardBody, DashboardViewSchema, SaveLayoutBody } from './dashboardSchemas.js';
import { READ, TAG, WRITE } from './schemas.js';
import { dashboardStreamRoute } from './dashboardStream.js';

const BASE = '/widgets/tableros';
const tenant = (ctx: RequestContext): TenantRequestContext => ctx as TenantRequestContext;
const userOf = (ctx: RequestContext): string => ctx.auth!.userId;

const dashboards = recordKit({
  tag: TAG,
  base: BASE,
  read: READ,
  write: WRITE,
  noun: 'dashboard',
  model: dashboardModel,
  view: (doc, scope) => viewFor(doc, readerPermissions((scope as TenantRequestContext).auth)),
  viewSchema: DashboardViewSchema,
});
const notFound404 = dashboards.notFound404;

/** The signed-in person's dashboard; on first use a copy of the company default (or the built-in one) without unreadable widgets. */
const mine = route({
  method: 'get',
  path: `${BASE}/mio`,
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary: 'Your own dashboard, created on first use from the company default',
  description: 'First use copies the company default (else every widget you may read), leaving out widgets you may not read.',
  responses: { 200: ok('Your dashboard', DashboardViewSchema, READ_HEADERS), 403: problem('`/problems/people-only`') },
  handle: async (_input, ctx) => {
    if (ctx.auth!.clientId) throw peopleOnly();
    const scope = tenant(ctx);
    const id = personDashboardId(scope.auth.tenantId, userOf(ctx));
    const doc = (await dashboardModel.get(scope, id)) ?? (await dashboardModel.folded(scope, id));
    if (doc) return { status: 200, body: viewFor(doc, readerPermissions(scope.auth)), headers: { ETag: etagOf(doc.revision) } };
    const source = await companyDefault(scope);
    const layout = source ? { id: source.id, title: source.title, panels: source.panels } : builtInLayout();
    const created = await createPersonDashboard(
      ctx.services.events,
      commandCtx(ctx),
      catalogPolicy(readerPermissions(scope.auth)),
      userOf(ctx),
      layout,
    );
    const result = created.result ?? { revision: 0, position: null };
    return { ...(await dashboards.answer(ctx, id, result, 200)), status: 200 };
  },
});

const read = route({
  method: 'get',
  path: `${BASE}/{id}`,
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary: 'Read a dashboard (the company default or your own)',
  params: IdParams,
  responses: { 200: ok('The dashboard', DashboardViewSchema, READ_HEADERS), 404: notFound404 },
  handle: async (input, ctx) => {
    const doc = await visibleDashboard(tenant(ctx), userOf(ctx), input.params.id);
    return { status: 200, body: viewFor(doc, readerPermissions(ctx.auth!)), headers: { ETag: etagOf(doc.revision) } };
  },
});

const save = route({
  method: 'put',
  path: `${BASE}/{id}`,
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary: "Save a dashboard's layout (If-Match)",
  description: 'Your own: widgets:read suffices; the company default needs widgets:write. Panel errors name /body/panels/i/….',
  params: IdParams,
  body: SaveLayoutBody,
  requestHeaders: { 'If-Match': ifMatchHeader(true) },
  responses: { 200: ok('The saved dashboard', DashboardViewSchema), 404: notFound404, ...IF_MATCH_PROBLEMS },
  handle: (input, ctx) =>
    withFieldPointers(async () => {
      const scope = tenant(ctx);
      const doc = await visibleDashboard(scope, userOf(ctx), input.params.id);
      if (doc.scope === 'company' && !readerPermissions(scope.auth).has(WRITE)) throw forbidden(WRITE);
      const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
      const { reason, ...layout } = input.body;
      const policy = catalogPolicy(doc.scope === 'company' ? 'company' : readerPermissions(scope.auth));
      const result = await saveDashboardLayout(ctx.services.events, commandCtx(ctx, reason), policy, doc.id, layout, ifMatch);
      return dashboards.answer(ctx, doc.id, result);
    }),
});

export const dashboardRoutes: RouteDecl[] = [
  dashboards.list({
    summary: 'The dashboards you see: the company default and your own',
    filters: {},
    list: (scope, query) => {
      const ctx = scope as TenantRequestContext;
      return listDashboards(scope, { userId: ctx.auth.userId, permissions: readerPermissions(ctx.auth) }, query);
    },
  }),
  dashboards.create({
    summary: "Create the company's default dashboard (one per company)",
    description: "Copied into each person's own dashboard on first use. A second answers 409 already-exists.",
    body: CreateCompanyDashboardBody,
    idKey: 'dashboardId',
    handle: (body, ctx) =>
      createCompanyDashboard(ctx.services.events, commandCtx(ctx), catalogPolicy('company'), { title: body.title, panels: body.panels }),
  }),
  mine,
  read,
  save,
  historyRoute({
    path: `${BASE}/{id}/historial`,
    tag: TAG,
    permission: READ,
    summary: "The dashboard's history: who, when, why and what of every change, oldest first",
    params: IdParams,
    idParam: 'id',
    category: dashboardModel.category,
    projection: dashboardModel.projection,
    fold: dashboardModel.fold,
    notFound: notFound404,
    exists: (scope, id) => visibleDashboard(scope, (scope as TenantRequestContext).auth.userId, id),
  }),
  dashboardStreamRoute,
];
