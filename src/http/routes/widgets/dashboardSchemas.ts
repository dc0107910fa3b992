// The shapes of the dashboards' bodies and views: panels on a 12-column grid, each a catalog widget with its parameters.
import Type from 'typebox';
import { closed, IdSchema, nullable, ReasonSchema, text } from '../shared/fieldSchemas.js';
import { DASHBOARD_LIMITS } from '../../../commands/widgets/dashboard/dashboardEvents.js';
import { WidgetIdSchema } from './schemas.js';

const { columns, rows, maxPanels, maxTitle } = DASHBOARD_LIMITS;

export const PanelSchema = closed({
  panelId: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$', description: 'Panel id (a uuid or a short id)' }),
  widgetId: WidgetIdSchema,
  params: Type.Record(Type.String(), Type.Unknown(), { description: "Per the widget's catalog `params`" }),
  position: closed({
    x: Type.Integer({ minimum: 0, maximum: columns - 1 }),
    y: Type.Integer({ minimum: 0, maximum: rows - 1 }),
    w: Type.Integer({ minimum: 1, maximum: columns }),
    h: Type.Integer({ minimum: 1, maximum: 12 }),
  }),
});

const Panels = Type.Array(PanelSchema, { maxItems: maxPanels, description: `At most ${maxPanels}` });

export const SaveLayoutBody = closed({
  title: Type.Optional(text(maxTitle)),
  panels: Panels,
  reason: Type.Optional(ReasonSchema),
});

export const CreateCompanyDashboardBody = closed({
  scope: Type.Literal('company', { description: 'The company default (one per company)' }),
  title: text(maxTitle),
  panels: Panels,
});

export const DashboardViewSchema = closed({
  id: IdSchema,
  scope: Type.Union([Type.Literal('person'), Type.Literal('company')]),
  ownerUserId: nullable(Type.String()),
  title: Type.String(),
  panels: Type.Array(
    closed({
      ...PanelSchema.properties,
      readable: Type.Boolean({ description: 'false: you may not read its widget (its data is never sent)' }),
    }),
  ),
  copiedFrom: nullable(IdSchema),
  version: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
