// The Widgets group's names and the shapes of its catalog and data answers.
import Type from 'typebox';
import { groupNames } from '../shared/groupNames.js';
import { closed } from '../shared/fieldSchemas.js';
import { WIDGET_PARAMS } from '../../../queries/widgets/widgetDefinition.js';
import { MinPositionField } from '../../commonSchemas.js';

export const { TAG, READ, WRITE } = groupNames('widgets', 'Widgets');

export const WidgetIdSchema = Type.String({ pattern: '^[a-z][a-z0-9-]{1,63}$', description: 'Widget id (from the catalog)' });

export const CatalogEntrySchema = closed({
  id: WidgetIdSchema,
  title: Type.String(),
  description: Type.String(),
  permissions: Type.Array(Type.String(), { description: 'Needed beside `widgets:read`' }),
  params: Type.Unknown({ description: 'JSON Schema of its parameters' }),
  data: Type.Unknown({ description: 'JSON Schema of its data' }),
});

export const CatalogSchema = closed({ items: Type.Array(CatalogEntrySchema) });

export const AsOfSchema = closed({
  position: Type.String({ pattern: '^[0-9]+$', description: 'Log position the read models had applied' }),
  computedAt: Type.String({ format: 'date-time' }),
});

export const WidgetDataSchema = closed({
  widgetId: WidgetIdSchema,
  params: Type.Record(Type.String(), Type.Unknown(), { description: 'Parameters in effect' }),
  asOf: AsOfSchema,
  data: Type.Unknown({ description: "Shaped as the catalog's `data`" }),
});

export const WidgetDataQuery = closed({
  ...Object.fromEntries(Object.entries(WIDGET_PARAMS).map(([name, schema]) => [name, Type.Optional(schema)])),
  ...MinPositionField,
} as { [K in keyof typeof WIDGET_PARAMS]: ReturnType<typeof Type.Optional<(typeof WIDGET_PARAMS)[K]>> } & typeof MinPositionField);
