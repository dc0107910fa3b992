// The payer and staff widgets: authorizations running out, the month's billing per payer, staff licences expiring.
import type { WidgetSet } from './widgetDefinition.js';

export const payerStaffWidgets: WidgetSet = { widgets: [], projections: [] };
