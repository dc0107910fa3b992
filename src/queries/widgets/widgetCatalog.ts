// Every widget of the service, one list: the catalog route, the data route and live dashboards read it.
import type { Projection } from '../../projections/runner/projection.js';
import type { WidgetDefinition, WidgetSet } from './widgetDefinition.js';
import { floorWidgets } from './floorWidgets.js';
import { adequacyWidgets } from './adequacyWidgets.js';
import { equipmentWidgets } from './equipmentWidgets.js';
import { payerStaffWidgets } from './payerStaffWidgets.js';
import { dashboardWidgets } from './dashboardWidgets.js';
import { moduleWidgets } from './moduleWidgets.js';

const SETS: readonly WidgetSet[] = [floorWidgets, adequacyWidgets, equipmentWidgets, payerStaffWidgets, dashboardWidgets, moduleWidgets];

export const WIDGETS: readonly WidgetDefinition[] = SETS.flatMap((set) => set.widgets);
export const WIDGET_PROJECTIONS: readonly Projection[] = SETS.flatMap((set) => set.projections);

const byId = new Map(WIDGETS.map((widget) => [widget.id, widget]));

export const widgetById = (id: string): WidgetDefinition | undefined => byId.get(id);

/** Whether a reader holding `permissions` sees the widget (it needs every permission the widget names, and its own check). */
export const mayRead = (widget: WidgetDefinition, permissions: ReadonlySet<string>): boolean =>
  widget.permissions.every((permission) => permissions.has(permission)) && (widget.listedFor?.(permissions) ?? true);

/** Whether a reader holding `permissions` may read the widget with these parameters (a module widget: that module's read). */
export function mayReadWith(widget: WidgetDefinition, permissions: ReadonlySet<string>, params: Record<string, unknown>): boolean {
  if (!mayRead(widget, permissions)) return false;
  try {
    widget.guard?.(params, permissions);
    return true;
  } catch {
    return false;
  }
}
