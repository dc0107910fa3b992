// The widget of a company's own module (Generador): its records counted by state (or active/archived), created per month
// over twelve months, and the latest few, from the counters the widgets-modules projection keeps. Readers need the
// module's read permission (`mod.<code>:read`), which the catalog's static permissions cannot name: `guard` checks it.
import Type from 'typebox';
import { defineWidget, DisplayCounts, DisplayItems, DisplaySeries, widgetParams, type WidgetSet } from './widgetDefinition.js';
import {
  ACTIVE,
  ARCHIVED,
  MODULE_WIDGET_COUNTERS,
  MODULE_WIDGET_RECORDS,
  MODULE_WIDGETS_PROJECTION,
  moduleWidgetsProjection,
  type ModuleCounterDoc,
  type ModuleMemberDoc,
} from '../../projections/widgets/moduleWidgetsProjection.js';
import { MODULES_PROJECTION } from '../../projections/generador/modulesProjection.js';
import { MODULE_RECORD_CATEGORY } from '../../commands/generador/record/moduleRecordEvents.js';
import { mayOnModule, readsAnyModule } from '../../commands/generador/shared/modulePermissions.js';
import { modulePermission } from '../../commands/generador/shared/definitionTypes.js';
import { forbidden, notFoundProblem, ProblemError } from '../../problems.js';
import { moduleByCode } from '../generador/modules.js';

const DEFAULT_ITEMS = 5;
const MONTHS = 12;

const ModuleRecordsData = Type.Object(
  {
    module: Type.String(),
    name: Type.String({ description: "The module's name" }),
    total: Type.Integer({ description: 'Records, archived included' }),
    counts: DisplayCounts,
    series: DisplaySeries,
    items: DisplayItems,
  },
  { additionalProperties: false },
);

/** The twelve months ending with `month` (YYYY-MM), oldest first. */
export function lastMonths(month: string, count = MONTHS): string[] {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const index = year * 12 + (m - 1) - (count - 1 - i);
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

export const moduleRecordsWidget = defineWidget({
  id: 'module-records',
  title: "A module's records",
  description: 'Records of one of the company modules by state, created per month, and the latest. Needs mod.<module>:read.',
  permissions: [],
  params: widgetParams('module', 'limit'),
  data: ModuleRecordsData,
  projections: [MODULE_WIDGETS_PROJECTION, MODULES_PROJECTION],
  categories: [MODULE_RECORD_CATEGORY],
  listedFor: readsAnyModule,
  guard(params, permissions) {
    const code = params.module;
    if (typeof code !== 'string')
      throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'The widget needs a module', {}, [
        { pointer: '/query/module', message: "the widget 'module-records' needs the module's code" },
      ]);
    if (!mayOnModule(permissions, code, 'read')) throw forbidden(modulePermission(code, 'read'));
  },
  async read(params, ctx) {
    moduleRecordsWidget.guard!(params, ctx.permissions);
    const code = params.module!;
    const module = await moduleByCode(ctx, code);
    if (!module || module.status === 'draft') throw notFoundProblem('No such module');
    const tenantId = ctx.auth.tenantId;
    const counters = ctx.services.projections.collection<ModuleCounterDoc>(MODULE_WIDGETS_PROJECTION, MODULE_WIDGET_COUNTERS);
    const records = ctx.services.projections.collection<ModuleMemberDoc>(MODULE_WIDGETS_PROJECTION, MODULE_WIDGET_RECORDS);
    const { definition } = module;
    const states = definition.states?.states ?? [{ name: ACTIVE, label: 'Active' }];
    const buckets = [...states, { name: ARCHIVED, label: 'Archived' }];
    const months = lastMonths(ctx.today.slice(0, 7));
    const [byState, byMonth, latest] = await Promise.all([
      counters.find(tenantId, { module: code, kind: 'state' }, { limit: 200 }),
      counters.find(tenantId, { module: code, kind: 'month', key: { $gte: months[0]! } }, { limit: MONTHS + 1 }),
      records.find(tenantId, { module: code }, { sort: { createdAt: -1 }, limit: params.limit ?? DEFAULT_ITEMS }),
    ]);
    const stateCount = new Map(byState.items.map((d) => [d.key, d.count]));
    const monthCount = new Map(byMonth.items.map((d) => [d.key, d.count]));
    const labelOf = new Map(buckets.map((b) => [b.name, b.label]));
    const shown = definition.listFields?.[0] ?? definition.fields[0]?.name;
    return {
      module: code,
      name: definition.name,
      total: byState.items.reduce((sum, d) => sum + d.count, 0),
      counts: buckets.map((b) => ({ key: b.name, label: b.label, value: stateCount.get(b.name) ?? 0 })),
      series: [{ key: 'created', label: 'Records created', points: months.map((x) => ({ x, y: monthCount.get(x) ?? 0 })) }],
      items: latest.items.map((r) => {
        const bucket = r.archived ? ARCHIVED : (r.state ?? ACTIVE);
        const value = shown === undefined ? undefined : r.values[shown];
        return {
          id: r.id,
          label: value === undefined ? r.id : Array.isArray(value) ? value.join(', ') : String(value),
          detail: labelOf.get(bucket) ?? bucket,
          date: r.createdAt.slice(0, 10),
          ...(r.patientId ? { patientId: r.patientId } : {}),
        };
      }),
    };
  },
});

export const moduleWidgets: WidgetSet = { widgets: [moduleRecordsWidget], projections: [moduleWidgetsProjection] };
