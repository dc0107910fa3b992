// Commands on dashboards as the routes run them: a person's own dashboard (created on first use, one per person),
// the company default (one per company) and layout saves with If-Match; the catalog comes in as a policy.
import { DomainError } from '../../decider.js';
import { handleCommand, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { uuidV5 } from '../../eventIds.js';
import { dashboardDecider, type DashboardState } from './dashboardDecider.js';
import type { DashboardLayout, DashboardPolicy, Panel } from './dashboardEvents.js';
import type { EventStore } from '../../../stores/eventStore.js';

/** A person's dashboard id: one per person and company, so a first use retried or raced creates it once. */
export const personDashboardId = (tenantId: string, userId: string): string =>
  uuidV5(`dashboard\u0000${tenantId}\u0000person\u0000${userId}`);
/** The company default's id: one per company. */
export const companyDashboardId = (tenantId: string): string => uuidV5(`dashboard\u0000${tenantId}\u0000company`);

/** Creates the company default; a second answers 409 already-exists. */
export async function createCompanyDashboard(
  events: EventStore,
  ctx: CommandContext,
  policy: DashboardPolicy,
  layout: DashboardLayout,
): Promise<{ dashboardId: string; result: CommandResult<DashboardState> }> {
  const dashboardId = companyDashboardId(ctx.tenantId);
  const data = { ...layout, scope: 'company' as const, ownerUserId: null, copiedFrom: null };
  const result = await handleCommand(events, dashboardDecider(policy), { type: 'CreateDashboard', aggregateId: dashboardId, data }, ctx);
  return { dashboardId, result };
}

/**
 * A person's first dashboard, copied from `source` (the company default, or a built-in one) leaving out the panels whose
 * widget the person may not read (or whose parameters it no longer takes). Null when another request created it first (the caller reads that one).
 */
export async function createPersonDashboard(
  events: EventStore,
  ctx: CommandContext,
  policy: DashboardPolicy,
  userId: string,
  source: DashboardLayout & { id: string | null },
): Promise<{ dashboardId: string; result: CommandResult<DashboardState> | null }> {
  const dashboardId = personDashboardId(ctx.tenantId, userId);
  const usable = (panel: Panel): boolean => {
    const widget = policy.widget(panel.widgetId);
    return widget?.readable === true && widget.paramErrors(panel.params).length === 0;
  };
  const panels: Panel[] = source.panels.filter(usable);
  const data = { title: source.title, panels, scope: 'person' as const, ownerUserId: userId, copiedFrom: source.id };
  try {
    const command = { type: 'CreateDashboard' as const, aggregateId: dashboardId, data };
    return { dashboardId, result: await handleCommand(events, dashboardDecider(policy), command, ctx, { expectNew: true }) };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'already-exists') return { dashboardId, result: null };
    throw err;
  }
}

/** Saves a dashboard's layout (If-Match required: the caller passes the revision the client read). */
export function saveDashboardLayout(
  events: EventStore,
  ctx: CommandContext,
  policy: DashboardPolicy,
  dashboardId: string,
  layout: { title?: string; panels: Panel[] },
  ifMatch: number,
): Promise<CommandResult<DashboardState>> {
  return handleCommand(events, dashboardDecider(policy), { type: 'SaveDashboardLayout', aggregateId: dashboardId, data: layout }, ctx, {
    ifMatch,
  });
}
