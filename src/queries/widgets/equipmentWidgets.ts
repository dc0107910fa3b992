// The equipment and stock widgets: machines, dialyzers near their maximum or with falling TCV, stock and expiring lots.
import type { WidgetSet } from './widgetDefinition.js';

export const equipmentWidgets: WidgetSet = { widgets: [], projections: [] };
