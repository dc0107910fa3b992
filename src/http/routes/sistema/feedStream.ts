// The change feed as Server-Sent Events: catch up page by page, then wait for the company's next event; an `id:` per
// event (an EventSource resends the last as Last-Event-ID), heartbeat comments, and a clean end at hang-up or shutdown.
import type { Readable } from 'node:stream';
import type { AppServices } from '../../../services.js';
import { readFeedPage, type FeedFilter } from '../../../queries/sistema/changeFeed.js';
import type { FeedEvent } from '../../../queries/sistema/feedEvents.js';
import { FEED_LIMITS, feedHubOf } from './feedHub.js';
import { sseOutlet } from './sseOutlet.js';

const message = (event: FeedEvent): string => `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** The stream of a company's events after `after`; it holds one of the company's slots (taken by the caller) until it ends. */
export function feedEventStream(
  services: AppServices,
  tenant: string,
  start: { after: bigint; limit: number; lifetimeMs: number },
  filter: FeedFilter,
  release: () => void,
): Readable {
  const hub = feedHubOf(services);
  const { write, stopped, hangUp, run } = sseOutlet(hub.closing);

  async function pump(): Promise<void> {
    await write(`retry: ${FEED_LIMITS.retryMs}\n: connected\n\n`);
    let after = start.after;
    const endsAt = Date.now() + Math.min(start.lifetimeMs, FEED_LIMITS.maxStreamMs);
    while (!stopped() && Date.now() < endsAt) {
      const page = await readFeedPage(services, tenant, { after, limit: start.limit, scanBudget: FEED_LIMITS.scanPerPage }, filter);
      for (const event of page.items) {
        if (stopped()) return;
        await write(message(event));
      }
      after = page.next;
      if (page.items.length === start.limit || page.next < page.head) continue; // still catching up
      const quiet = Math.min(FEED_LIMITS.heartbeatMs, endsAt - Date.now());
      const woken = await hub.nextEvent(tenant, after, Math.max(quiet, 0), hangUp);
      if (woken === 'timeout') await write(': heartbeat\n\n');
    }
  }

  return run(pump, (error) => services.logger.error('change feed stream failed', { tenant, error }), release);
}
