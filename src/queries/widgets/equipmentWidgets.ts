// The equipment and stock widgets: machines, dialyzers near their maximum or with falling TCV, stock and expiring lots.
import Type from 'typebox';
import { MACHINE_CATEGORY } from '../../commands/monitores/machineEvents.js';
import { DIALYZER_CATEGORY } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import { PRODUCT_CATEGORY } from '../../commands/productos/productEvents.js';
import { STOCK_CATEGORY } from '../../commands/productos/stockEvents.js';
import { POLICY_CATEGORY } from '../../commands/empresas/policyEvents.js';
import { EQUIPMENT_PROJECTION, equipmentProjection } from '../../projections/widgets/equipmentProjection.js';
import { defineWidget, DisplayCounts, DisplayItems, DisplaySeries, widgetParams, type WidgetSet } from './widgetDefinition.js';
import { dialyzersAttention, machinesAttention, stockAttention } from './equipmentReads.js';

const display = { counts: DisplayCounts, series: DisplaySeries, items: DisplayItems };
const horizon = {
  today: Type.String({ format: 'date', description: "The company's day the horizon counts from" }),
  days: Type.Integer({ description: 'The horizon in days' }),
};

const machinesAttentionWidget = defineWidget({
  id: 'machines-attention',
  title: 'Machines needing attention',
  description:
    'Machines awaiting disinfection, out of service (or under corrective maintenance), and whose preventive maintenance falls ' +
    "due within `days` (default 14) or is overdue by the company's plan for their model.",
  permissions: ['monitores:read'],
  params: widgetParams('days', 'limit'),
  data: Type.Object({ ...horizon, ...display }, { additionalProperties: false }),
  projections: [EQUIPMENT_PROJECTION],
  categories: [MACHINE_CATEGORY, POLICY_CATEGORY],
  read: (params, ctx) => machinesAttention(ctx, ctx.today, params.days, params.limit),
});

const dialyzersAttentionWidget = defineWidget({
  id: 'dialyzers-attention',
  title: 'Dialyzers near their maximum or with falling TCV',
  description:
    "Dialyzers in service within the reuse alerts' margin of their maximum uses, or whose last TCV is within its margin of " +
    "the policy's discard threshold (the alerts of /filtros-dialisis/alertas).",
  permissions: ['filtros-dialisis:read'],
  params: widgetParams('limit'),
  data: Type.Object(display, { additionalProperties: false }),
  projections: [EQUIPMENT_PROJECTION],
  categories: [DIALYZER_CATEGORY, POLICY_CATEGORY],
  read: (params, ctx) => dialyzersAttention(ctx, params.limit),
});

const stockAttentionWidget = defineWidget({
  id: 'stock-attention',
  title: 'Stock below minimum and lots expiring',
  description:
    'Active products whose stock is below their minimum, and lots with stock left that expire within `days` (default 60) ' +
    'or have expired.',
  permissions: ['productos:read'],
  params: widgetParams('days', 'limit'),
  data: Type.Object({ ...horizon, ...display }, { additionalProperties: false }),
  projections: [EQUIPMENT_PROJECTION],
  categories: [PRODUCT_CATEGORY, STOCK_CATEGORY],
  read: (params, ctx) => stockAttention(ctx, ctx.today, params.days, params.limit),
});

export const equipmentWidgets: WidgetSet = {
  widgets: [machinesAttentionWidget, dialyzersAttentionWidget, stockAttentionWidget],
  projections: [equipmentProjection],
};
