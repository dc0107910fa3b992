// What a live dashboard recomputes after the company's events: the categories those events touched (a scan bounded
// per debounce), whether the dashboard's own layout changed, and each affected panel's data once its projections caught up.
import type { RequestContext } from '../../routeTypes.js';
import { aggregateIdOfStream, categoryOfStream } from '../../../stores/eventStore.js';
import { mayReadWith, widgetById } from '../../../queries/widgets/widgetCatalog.js';
import type { WidgetDefinition } from '../../../queries/widgets/widgetDefinition.js';
import { DASHBOARD_CATEGORY } from '../../../commands/widgets/dashboard/dashboardEvents.js';
import type { DashboardDoc } from '../../../projections/widgets/dashboardDoc.js';
import { widgetAnswer } from './widgetDataRoutes.js';
import { widgetReadable } from '../../../queries/widgets/dashboards.js';

export const LIVE_LIMITS = {
  /** Events closer than this to each other are one burst: one recomputation (one push per changed panel)... */
  debounceMs: 300,
  /** ...unless the burst lasts longer than this: then it is recomputed anyway, and again after. */
  maxDebounceMs: 2_000,
  /** Events read per recomputation at most; beyond, every panel counts as affected (nothing is missed). */
  scanBudget: 5_000,
} as const;

export interface LivePanel {
  panelId: string;
  widget: WidgetDefinition;
  params: Record<string, unknown>;
}

/** The panels of the dashboard the reader may read, with their parameters (their data is ever sent; the others never). */
export function livePanels(doc: DashboardDoc, permissions: ReadonlySet<string>): LivePanel[] {
  const readable = widgetReadable(permissions);
  return doc.panels
    .filter((panel) => readable(panel.widgetId) && mayReadWith(widgetById(panel.widgetId)!, permissions, panel.params))
    .map((panel) => ({ panelId: panel.panelId, widget: widgetById(panel.widgetId)!, params: panel.params }));
}

export interface Changes {
  /** Categories of the company's events in the range. */
  categories: Set<string>;
  /** The dashboard's own stream changed (its layout). */
  layout: boolean;
  /** More events than the scan budget: every panel is affected. */
  overflow: boolean;
}

/** What the company's events after `after` up to `head` touched. */
export async function changesBetween(
  ctx: RequestContext,
  tenant: string,
  dashboardId: string,
  after: bigint,
  head: bigint,
): Promise<Changes> {
  const changes: Changes = { categories: new Set(), layout: false, overflow: false };
  if (head <= after) return changes;
  const events = await ctx.services.events.readAll({ after, tenant, maxCount: LIVE_LIMITS.scanBudget });
  for (const event of events) {
    if (event.position > head) break;
    const category = categoryOfStream(event.streamName);
    changes.categories.add(category);
    if (category === DASHBOARD_CATEGORY && aggregateIdOfStream(event.streamName) === dashboardId) changes.layout = true;
  }
  const last = events.at(-1);
  changes.overflow = events.length === LIVE_LIMITS.scanBudget && last !== undefined && last.position < head;
  return changes;
}

/** Waits until the company's log has been quiet for `debounceMs` (at most `maxDebounceMs`): the head after the burst. */
export async function quietHead(ctx: RequestContext, tenant: string, sleep: (ms: number) => Promise<void>): Promise<bigint> {
  const until = Date.now() + LIVE_LIMITS.maxDebounceMs;
  let head = await ctx.services.events.headPosition(tenant);
  for (;;) {
    await sleep(LIVE_LIMITS.debounceMs);
    const now = await ctx.services.events.headPosition(tenant);
    if (now === head || Date.now() >= until) return now;
    head = now;
  }
}

export const affected = (panel: LivePanel, changes: Changes): boolean =>
  changes.overflow || panel.widget.categories.some((category) => changes.categories.has(category));

/** The panel's message body (the data route's answer plus its panel id), once its projections applied `position`. */
export async function panelAnswer(ctx: RequestContext, tenant: string, panel: LivePanel, position: bigint) {
  await ctx.services.projections.waitFor(position, { projections: [...panel.widget.projections], tenant });
  return { panelId: panel.panelId, ...(await widgetAnswer(ctx, panel.widget, panel.params)) };
}
