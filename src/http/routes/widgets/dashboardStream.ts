// GET /widgets/tableros/{id}/eventos: a dashboard live as Server-Sent Events. Every readable panel's data first, then,
// after the company's events in a category a panel's widget depends on (debounced), the panels whose data changed;
// Last-Event-ID resumes with the panels that changed since. Holds a change-feed slot; ends with the token and at shutdown.
import type { Readable } from 'node:stream';
import { route, type RequestContext, type TenantRequestContext } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { IdParams } from '../shared/fieldSchemas.js';
import { FEED_LIMITS, feedHubOf } from '../sistema/feedHub.js';
import { tokenLifeLeftMs } from '../sistema/feedRoutes.js';
import { sseOutlet } from '../sistema/sseOutlet.js';
import { viewFor, visibleDashboard } from '../../../queries/widgets/dashboards.js';
import { readerPermissions } from './widgetReader.js';
import { DASHBOARDS_PROJECTION } from '../../../projections/widgets/dashboardsProjection.js';
import { affected, changesBetween, livePanels, quietHead, panelAnswer, type Changes, type LivePanel } from './dashboardLive.js';
import { READ, TAG } from './schemas.js';

const POSITION_PATTERN = '^(0|[1-9][0-9]{0,17})$';
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

function liveStream(
  ctx: RequestContext,
  dashboardId: string,
  resumeAfter: bigint | null,
  lifetimeMs: number,
  release: () => void,
): Readable {
  const { services } = ctx;
  const tenant = ctx.auth!.tenantId!;
  const userId = ctx.auth!.userId;
  const permissions = readerPermissions(ctx.auth!);
  const hub = feedHubOf(services);
  const { write, stopped, hangUp, run } = sseOutlet(hub.closing);
  const sent = new Map<string, string>(); // panel id -> the data last sent (JSON)
  let panels: LivePanel[] = [];

  /**
   * Recomputes the panels `which` selects at `position`; pushes those whose data differs from what was sent, those
   * `force` names, and (unless resuming: the client has them) the panels not computed yet on this stream.
   */
  async function push(
    position: bigint,
    which: (panel: LivePanel) => boolean,
    force: (panel: LivePanel) => boolean,
    sendUnknown = true,
  ): Promise<void> {
    for (const panel of panels.filter(which)) {
      if (stopped()) return;
      const body = await panelAnswer(ctx, tenant, panel, position);
      const data = JSON.stringify(body.data);
      const known = sent.get(panel.panelId);
      const changed = known === undefined ? sendUnknown : known !== data;
      sent.set(panel.panelId, data);
      if (changed || force(panel)) await write(`id: ${position}\nevent: widget\ndata: ${JSON.stringify(body)}\n\n`);
    }
  }

  /** Re-reads the dashboard (its layout changed): sends the new view, forgets panels that left or changed. */
  async function reloadLayout(position: bigint): Promise<void> {
    await services.projections.waitFor(position, { projections: [DASHBOARDS_PROJECTION], tenant });
    const doc = await visibleDashboard(ctx as TenantRequestContext, userId, dashboardId);
    const before = new Map(panels.map((panel) => [panel.panelId, JSON.stringify([panel.widget.id, panel.params])]));
    panels = livePanels(doc, permissions);
    for (const panel of panels)
      if (before.get(panel.panelId) !== JSON.stringify([panel.widget.id, panel.params])) sent.delete(panel.panelId);
    await write(`id: ${position}\nevent: layout\ndata: ${JSON.stringify(viewFor(doc, permissions))}\n\n`);
  }

  async function pump(): Promise<void> {
    await write(`retry: ${FEED_LIMITS.retryMs}\n: connected\n\n`);
    const endsAt = Date.now() + Math.min(lifetimeMs, FEED_LIMITS.maxStreamMs);
    let after = await services.events.headPosition(tenant);
    await services.projections.waitFor(after, { projections: [DASHBOARDS_PROJECTION], tenant }); // the layout as of `after`
    panels = livePanels(await visibleDashboard(ctx as TenantRequestContext, userId, dashboardId), permissions);
    if (resumeAfter === null)
      await push(
        after,
        () => true,
        () => true,
      );
    else {
      // Resuming: every panel computed (what later pushes compare with), sent only when its inputs changed since.
      const changes = await changesBetween(ctx, tenant, dashboardId, resumeAfter, after);
      if (changes.layout) await reloadLayout(after);
      await push(
        after,
        () => true,
        (panel) => changes.layout || affected(panel, changes),
        false,
      );
    }
    while (!stopped() && Date.now() < endsAt) {
      const quiet = Math.max(Math.min(FEED_LIMITS.heartbeatMs, endsAt - Date.now()), 0);
      const woken = await hub.nextEvent(tenant, after, quiet, hangUp);
      if (woken === 'closed') return;
      if (woken === 'timeout') {
        await write(': heartbeat\n\n');
        continue;
      }
      const head = await quietHead(ctx, tenant, (ms) => sleep(ms, hangUp)); // a burst of events: one recomputation
      if (stopped()) return;
      const changes: Changes = await changesBetween(ctx, tenant, dashboardId, after, head);
      after = head;
      if (changes.layout) await reloadLayout(head);
      await push(
        head,
        (panel) => changes.layout || affected(panel, changes),
        () => false,
      );
    }
  }

  return run(pump, (error) => services.logger.error('dashboard stream failed', { tenant, dashboardId, error }), release);
}

export const dashboardStreamRoute = route({
  method: 'get',
  path: '/widgets/tableros/{id}/eventos',
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary: "A dashboard's panels live (SSE)",
  description:
    '`Accept: text/event-stream`: `event: widget` per readable panel, then the changed ones (debounced); `event: layout` on a ' +
    'layout change. Resume with Last-Event-ID. Ends with the access token.',
  params: IdParams,
  requestHeaders: {
    'Last-Event-ID': { required: false, description: 'SSE resume', schema: { type: 'string', pattern: POSITION_PATTERN } },
  },
  responses: {
    200: { description: 'Server-Sent Events', contentType: 'text/event-stream', schema: { type: 'string' } },
    404: problem("No such dashboard (another person's or company's is reported the same way)"),
    429: problem('`/problems/too-many-streams`', { 'Retry-After': 'Seconds to wait' }),
  },
  // One entry per stream opened, as the change feed does: its panels may list patients (sessions awaiting, outliers).
  auditAccess: (input) => ({ recordType: 'dashboardStream', recordId: input.params.id }),
  handle: async (input, ctx) => {
    const tenant = ctx.auth!.tenantId!;
    await visibleDashboard(ctx as TenantRequestContext, ctx.auth!.userId, input.params.id);
    const lastEventId = input.headers['last-event-id'];
    const resumeAfter = lastEventId === undefined ? null : BigInt(lastEventId);
    if (resumeAfter !== null && resumeAfter > (await ctx.services.events.headPosition())) {
      throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'The position is beyond the end of this log', {}, [
        { pointer: '/headers/last-event-id', message: 'an event id this service sent' },
      ]);
    }
    const release = feedHubOf(ctx.services).acquire(tenant, ctx.rateLimits);
    const lifetimeMs = tokenLifeLeftMs(input.headers.authorization, ctx.services.now().getTime());
    const body = liveStream(ctx, input.params.id, resumeAfter, lifetimeMs, release);
    return { status: 200, body, contentType: 'text/event-stream; charset=utf-8' };
  },
});
