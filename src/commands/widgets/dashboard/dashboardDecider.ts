// Every rule about a dashboard. Pure: time and ids come in with the command, the widget catalog as a policy.
import type { Decider } from '../../decider.js';
import { DomainError, notFound } from '../../decider.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import {
  DASHBOARD_CATEGORY,
  DASHBOARD_LIMITS,
  type DashboardCommand,
  type DashboardEvent,
  type DashboardPolicy,
  type DashboardScope,
  type Panel,
} from './dashboardEvents.js';

export interface DashboardState {
  exists: boolean;
  scope: DashboardScope;
  title: string;
  panels: Panel[];
}

export const initialDashboardState: DashboardState = { exists: false, scope: 'person', title: '', panels: [] };

/** The layout's rules: a title, at most 24 panels with distinct ids, catalog widgets with their own parameters, on the grid. */
function checkLayout(title: string, panels: readonly Panel[], scope: DashboardScope, policy: DashboardPolicy): void {
  const checks = new FieldChecks();
  checks.check(title.trim().length > 0, 'title', 'must not be blank');
  checks.check(title.trim().length <= DASHBOARD_LIMITS.maxTitle, 'title', `at most ${DASHBOARD_LIMITS.maxTitle} characters`);
  checks.check(panels.length <= DASHBOARD_LIMITS.maxPanels, 'panels', `at most ${DASHBOARD_LIMITS.maxPanels} panels`);
  const seen = new Set<string>();
  panels.forEach((panel, i) => {
    const at = `panels/${i}`;
    checks.check(!seen.has(panel.panelId), `${at}/panelId`, 'another panel has this id');
    seen.add(panel.panelId);
    const widget = policy.widget(panel.widgetId);
    checks.check(widget !== undefined, `${at}/widgetId`, 'not a widget of the catalog');
    if (widget) {
      checks.check(scope === 'company' || widget.readable, `${at}/widgetId`, 'a widget you may not read');
      for (const problem of widget.paramErrors(panel.params)) checks.check(false, `${at}/params/${problem.name}`, problem.message);
    }
    const { x, w } = panel.position;
    checks.check(x + w <= DASHBOARD_LIMITS.columns, `${at}/position/w`, `x + w must not exceed ${DASHBOARD_LIMITS.columns} columns`);
  });
  checks.throwIfAny();
}

const sameLayout = (state: DashboardState, title: string, panels: readonly Panel[]): boolean =>
  state.title === title && JSON.stringify(state.panels) === JSON.stringify(panels);

export function decideDashboard(command: DashboardCommand, state: DashboardState, policy: DashboardPolicy): DashboardEvent[] {
  switch (command.type) {
    case 'CreateDashboard': {
      const { scope, ownerUserId, copiedFrom, panels } = command.data;
      if (state.exists) {
        const what = scope === 'company' ? 'the company already has its default dashboard' : 'this dashboard already exists';
        throw new DomainError('already-exists', what, 409);
      }
      const title = command.data.title.trim();
      checkLayout(title, panels, scope, policy);
      return [{ type: 'DashboardCreated', data: { dashboardId: command.aggregateId, scope, ownerUserId, copiedFrom, title, panels } }];
    }
    case 'SaveDashboardLayout': {
      if (!state.exists) throw notFound('dashboard');
      const title = command.data.title?.trim() ?? state.title;
      const { panels } = command.data;
      checkLayout(title, panels, state.scope, policy);
      if (sameLayout(state, title, panels)) return [];
      return [{ type: 'DashboardLayoutSaved', data: { title, panels } }];
    }
  }
}

export function evolveDashboard(state: DashboardState, event: DashboardEvent): DashboardState {
  switch (event.type) {
    case 'DashboardCreated':
      return { exists: true, scope: event.data.scope, title: event.data.title, panels: event.data.panels };
    case 'DashboardLayoutSaved':
      return { ...state, title: event.data.title, panels: event.data.panels };
  }
}

/** The dashboard decider deciding with one view of the catalog (the reader's, for their own dashboard). */
export const dashboardDecider = (policy: DashboardPolicy): Decider<DashboardCommand, DashboardEvent, DashboardState> => ({
  category: DASHBOARD_CATEGORY,
  initialState: initialDashboardState,
  evolve: evolveDashboard,
  decide: (command, state) => decideDashboard(command, state, policy),
});
