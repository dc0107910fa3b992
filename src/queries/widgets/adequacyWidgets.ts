// The clinical quality widgets: open alerts by kind, the month's adequacy, IDWG and UF-rate outliers.
import type { WidgetSet } from './widgetDefinition.js';

export const adequacyWidgets: WidgetSet = { widgets: [], projections: [] };
