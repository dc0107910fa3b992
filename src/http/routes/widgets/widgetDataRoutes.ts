// GET /widgets/catalogo and GET /widgets/{id}/datos: the widgets a person may see, and one widget's data from the read
// models kept for it, with the log position it is as of. A widget the reader may not see answers 403 naming the permission.
import Type from 'typebox';
import { route, type RequestContext, type TenantRequestContext } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { forbidden, notFoundProblem, ProblemError } from '../../../problems.js';
import { validationProblem } from '../../validation.js';
import { patientIdsIn } from '../../routeAudit.js';
import { moduleDisabled } from '../../routeAuth.js';
import { moduleOfPermission, readerPermissions } from './widgetReader.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { closed } from '../shared/fieldSchemas.js';
import { companyDay } from '../../../queries/empresas/companyCalendar.js';
import { mayRead, widgetById, WIDGETS } from '../../../queries/widgets/widgetCatalog.js';
import type { WidgetDefinition } from '../../../queries/widgets/widgetDefinition.js';
import { widgetData } from '../../../queries/widgets/preparedWidgetData.js';
import { CatalogSchema, READ, TAG, WidgetDataQuery, WidgetDataSchema, WidgetIdSchema } from './schemas.js';

export interface WidgetAnswer {
  widgetId: string;
  params: Record<string, unknown>;
  asOf: { position: string; computedAt: string };
  data: unknown;
}

/**
 * The widget a reader asked for: 404 when there is none, 403 naming the first permission they lack (`granted`: all their
 * permissions), 403 module-disabled when they hold it but their company switched its module off (`permissions`: those left).
 */
export function readableWidget(id: string, permissions: ReadonlySet<string>, granted = permissions): WidgetDefinition {
  const widget = widgetById(id);
  if (!widget) throw notFoundProblem('No such widget');
  const lacking = widget.permissions.find((p) => !granted.has(p));
  if (lacking) throw forbidden(lacking);
  const switchedOff = widget.permissions.find((p) => !permissions.has(p));
  if (switchedOff) throw moduleDisabled(moduleOfPermission(switchedOff) ?? switchedOff);
  return widget;
}

/** Parameters the widget does not take: refused one by one, naming each. */
export function checkWidgetParams(widget: WidgetDefinition, params: Record<string, unknown>): void {
  const taken = new Set(Object.keys(widget.params.properties));
  const foreign = Object.keys(params).filter((name) => params[name] !== undefined && !taken.has(name));
  if (foreign.length > 0)
    throw validationProblem(
      foreign.map((name) => ({ pointer: `/query/${name}`, message: `the widget '${widget.id}' takes no '${name}'` })),
    );
}

/**
 * What the widget's parameters need beyond its permissions (a module widget: that module's read): 403 naming it, or
 * 403 module-disabled when the reader holds it but the company switched its module off.
 */
export function guardWidgetParams(
  widget: WidgetDefinition,
  params: Record<string, unknown>,
  permissions: ReadonlySet<string>,
  granted = permissions,
): void {
  if (!widget.guard) return;
  widget.guard(params, granted);
  try {
    widget.guard(params, permissions);
  } catch (err) {
    const permission = err instanceof ProblemError ? err.extensions.permission : undefined;
    throw typeof permission === 'string' ? moduleDisabled(moduleOfPermission(permission) ?? permission) : err;
  }
}

/** One widget's data as of its projections' checkpoints (read before the data: the data is at least that recent). */
export async function widgetAnswer(
  ctx: TenantRequestContext | RequestContext,
  widget: WidgetDefinition,
  params: Record<string, unknown>,
): Promise<WidgetAnswer> {
  const { services } = ctx;
  const tenantId = ctx.auth!.tenantId!;
  const scope = { services, auth: { tenantId } };
  const position = widget.projections.reduce<bigint | null>((low, name) => {
    const at = services.projections.checkpointOf(name);
    return low === null || at < low ? at : low;
  }, null);
  const now = services.now();
  const today = await companyDay(scope, now);
  const data = await widgetData(widget, params, { ...scope, today, now, permissions: readerPermissions(ctx.auth!) });
  return { widgetId: widget.id, params, asOf: { position: (position ?? 0n).toString(), computedAt: now.toISOString() }, data };
}

export const widgetDataRoutes = [
  route({
    method: 'get',
    path: '/widgets/catalogo',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'The widgets you may see: id, title, permissions, parameters and data shape',
    description: 'Only the widgets whose permissions you hold (a clinical widget needs `pacientes:notes`).',
    responses: { 200: { description: 'The catalog', schema: CatalogSchema } },
    handle: (_input, ctx) => {
      const permissions = readerPermissions(ctx.auth!);
      const items = WIDGETS.filter((widget) => mayRead(widget, permissions)).map((widget) => ({
        id: widget.id,
        title: widget.title,
        description: widget.description,
        permissions: [...widget.permissions],
        params: widget.params,
        data: widget.data,
      }));
      return Promise.resolve({ status: 200, body: { items } });
    },
  }),
  route({
    method: 'get',
    path: '/widgets/{id}/datos',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "One widget's data, as of a log position",
    description: "Parameters per the catalog's `params` (another is 422). 403 without the widget's permissions.",
    params: closed({ id: WidgetIdSchema }),
    query: WidgetDataQuery,
    responses: {
      200: { description: 'The data', schema: WidgetDataSchema },
      403: problem('`/problems/forbidden`'),
      404: problem('No such widget'),
    },
    // A widget listing patients is a read of their records: audited with the patients it named (refusals too); counts are not.
    auditAccess: (input, result) =>
      result.status >= 300 || patientIdsIn(result.body).length > 0 ? { recordType: 'widget', recordId: input.params.id } : null,
    handle: async (input, ctx) => {
      const widget = readableWidget(input.params.id, readerPermissions(ctx.auth!), ctx.auth!.permissions);
      const { minPosition, ...params } = input.query;
      checkWidgetParams(widget, params);
      guardWidgetParams(widget, params, readerPermissions(ctx.auth!), ctx.auth!.permissions);
      await awaitMinPosition(ctx, minPosition, [...widget.projections]);
      return { status: 200, body: await widgetAnswer(ctx, widget, params) };
    },
  }),
];

export const WidgetIdParams = Type.Object({ id: WidgetIdSchema });
