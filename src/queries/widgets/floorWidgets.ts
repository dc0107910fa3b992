// The floor's widgets: patient census by status and isolation, today's board by shift, sessions awaiting signature or validation.
import type { WidgetSet } from './widgetDefinition.js';

export const floorWidgets: WidgetSet = { widgets: [], projections: [] };
