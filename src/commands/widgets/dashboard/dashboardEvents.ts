// Dashboards (stream `<tenant>.dashboard-<id>`): a person's own layout or the company default, each a list of panels
// (a catalog widget, its parameters, a place on a 12-column grid). Who/when/why travel in the event metadata.
import type { CommandEnvelope, DecidedEvent } from '../../decider.js';
import { streamName } from '../../../stores/streamNames.js';

/** The category of the dashboard streams: written once, here (the decider, the writes and the read side take it). */
export const DASHBOARD_CATEGORY = 'dashboard';
export const dashboardStream = (tenantId: string, dashboardId: string): string => streamName(tenantId, DASHBOARD_CATEGORY, dashboardId);

export const DASHBOARD_SCOPES = ['person', 'company'] as const;
export type DashboardScope = (typeof DASHBOARD_SCOPES)[number];

export const DASHBOARD_LIMITS = { maxPanels: 24, columns: 12, rows: 100, maxTitle: 120 } as const;

export type PanelPosition = {
  x: number;
  y: number;
  w: number;
  h: number;
};

export type Panel = {
  panelId: string;
  widgetId: string;
  params: Record<string, unknown>;
  position: PanelPosition;
};

export type DashboardLayout = {
  title: string;
  panels: Panel[];
};

/**
 * What the decider knows of the widget catalog, for the dashboard's scope and reader: whether a widget exists, whether
 * the person the dashboard belongs to may read it, and what is wrong with its parameters (an injected view of the catalog).
 */
export interface DashboardPolicy {
  widget(
    widgetId: string,
  ): { readable: boolean; paramErrors(params: Record<string, unknown>): { name: string; message: string }[] } | undefined;
}

export type DashboardCommand =
  | CommandEnvelope<
      'CreateDashboard',
      DashboardLayout & { scope: DashboardScope; ownerUserId: string | null; copiedFrom: string | null; leftOut?: string[] }
    >
  | CommandEnvelope<'SaveDashboardLayout', { title?: string; panels: Panel[] }>;

export type DashboardEvent =
  | DecidedEvent<
      'DashboardCreated',
      DashboardLayout & { dashboardId: string; scope: DashboardScope; ownerUserId: string | null; copiedFrom: string | null }
    >
  | DecidedEvent<'DashboardLayoutSaved', DashboardLayout>;

export const DASHBOARD_EVENT_TYPES: readonly DashboardEvent['type'][] = ['DashboardCreated', 'DashboardLayoutSaved'];
