// The widget catalog as the dashboard decider sees it: which widgets exist, which the reader may read, and each
// widget's parameters checked against its own schema (one compiled validator per widget, kept).
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../validation.js';
import { mayRead, widgetById, WIDGETS } from '../../../queries/widgets/widgetCatalog.js';
import type { DashboardLayout, DashboardPolicy } from '../../../commands/widgets/dashboard/dashboardEvents.js';

const ajv = newAjv({ coerce: false, defaults: false });
const validators = new Map<string, ValidateFunction>();

function paramErrors(widgetId: string, params: Record<string, unknown>): { name: string; message: string }[] {
  let validate = validators.get(widgetId);
  if (!validate) validators.set(widgetId, (validate = ajv.compile(widgetById(widgetId)!.params)));
  if (validate(params)) return [];
  return (validate.errors ?? []).map((error) => {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    const name = extra ?? error.instancePath.split('/')[1] ?? '';
    return { name, message: extra ? 'not a parameter of this widget' : (error.message ?? 'invalid') };
  });
}

/** The catalog for a dashboard read by a holder of `permissions` (for the company default every widget counts as readable). */
export function catalogPolicy(permissions: ReadonlySet<string> | 'company'): DashboardPolicy {
  return {
    widget(widgetId) {
      const widget = widgetById(widgetId);
      if (!widget) return undefined;
      return {
        readable: permissions === 'company' || mayRead(widget, permissions),
        paramErrors: (params) => paramErrors(widgetId, params),
      };
    },
  };
}

/**
 * The built-in first dashboard when the company has no default: every catalog widget that needs no parameter of the
 * company's own (a module widget names its module), two per row.
 */
export function builtInLayout(): DashboardLayout & { id: null } {
  return {
    id: null,
    title: 'My dashboard',
    panels: WIDGETS.filter((widget) => !widget.guard)
      .slice(0, 24)
      .map((widget, i) => ({
        panelId: widget.id,
        widgetId: widget.id,
        params: {},
        position: { x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 },
      })),
  };
}
