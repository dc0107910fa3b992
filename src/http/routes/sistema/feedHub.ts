// The change feed's open streams and long-polls: a bounded number per company (429 beyond), woken by the log's own
// subscription (no polling loop), and all ended at shutdown so a stopping service never waits for its clients.
import { observeRateLimit, type RateLimitLog, type RateLimitPolicy } from '../../../rateLimits.js';
import { setMaxListeners } from 'node:events';
import { ProblemError } from '../../../problems.js';
import { LIMITS } from '../../../limits.js';
import type { AppServices } from '../../../services.js';

export const FEED_LIMITS = {
  /** Streams (and waiting long-polls) a company may hold open at once. */
  maxOpenPerCompany: 20,
  /** Longest long-poll (`wait`, seconds). */
  maxWaitSeconds: 30,
  /** A comment line this often keeps proxies from closing a quiet stream. */
  heartbeatMs: 15_000,
  /**
   * A stream ends after an access token's lifetime: its reconnection (with Last-Event-ID, no gap) authenticates again, so
   * a revoked session or a role taken away stops what the principal sees within this bound.
   */
  maxStreamMs: LIMITS.accessToken.ttlSeconds * 1000,
  /** The reconnection delay a stream suggests to its client (`retry:`). */
  retryMs: 3_000,
  defaultLimit: 100,
  maxLimit: 500,
  /** Events read from the log per page at most, matching or not: a narrow filter never holds a request long. */
  scanPerPage: 5_000,
} as const;

/** The company's open streams and long-polls, as the RateLimit headers name them. */
const STREAM_SLOTS: RateLimitPolicy = { name: 'feed-streams', quota: FEED_LIMITS.maxOpenPerCompany, unit: 'concurrent-requests' };

export type Woken = 'event' | 'timeout' | 'closed';

export interface FeedHub {
  /** Takes one of the company's slots (429 when none is left, 503 once closing); returns its release (idempotent). */
  acquire(tenant: string, log?: RateLimitLog): () => void;
  /** Resolves at the company's first event after `after`, after `timeoutMs`, when `signal` aborts or the hub closes. */
  nextEvent(tenant: string, after: bigint, timeoutMs: number, signal?: AbortSignal): Promise<Woken>;
  /** Aborted when the service shuts down. */
  readonly closing: AbortSignal;
  close(): Promise<void>;
}

function createFeedHub(services: AppServices): FeedHub {
  const open = new Map<string, number>();
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per waiting stream or long-poll, bounded by the slots

  return {
    closing: shutdown.signal,
    acquire(tenant, log) {
      if (shutdown.signal.aborted)
        throw new ProblemError(503, 'shutting-down', 'Service Unavailable', 'The service is stopping', { 'Retry-After': '5' });
      const count = open.get(tenant) ?? 0;
      const full = count >= FEED_LIMITS.maxOpenPerCompany;
      observeRateLimit(log, STREAM_SLOTS, FEED_LIMITS.maxOpenPerCompany - count - (full ? 0 : 1), full ? FEED_LIMITS.retryMs / 1000 : null);
      if (full) {
        throw new ProblemError(
          429,
          'too-many-streams',
          'Too Many Requests',
          `This company already holds ${FEED_LIMITS.maxOpenPerCompany} open feed streams or long-polls; close one or poll without wait`,
          { 'Retry-After': String(FEED_LIMITS.retryMs / 1000) },
        );
      }
      open.set(tenant, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(tenant) ?? 1) - 1;
        if (left > 0) open.set(tenant, left);
        else open.delete(tenant);
      };
    },
    nextEvent(tenant, after, timeoutMs, signal) {
      if (shutdown.signal.aborted || signal?.aborted) return Promise.resolve('closed');
      return new Promise<Woken>((resolve) => {
        let settled = false;
        const finish = (why: Woken) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          shutdown.signal.removeEventListener('abort', onAbort);
          signal?.removeEventListener('abort', onAbort);
          // Stopped outside the handler: stop() waits for the handler in flight, which must not wait for stop().
          setImmediate(() => void subscription.stop());
          resolve(why);
        };
        const onAbort = () => finish('closed');
        const timer = setTimeout(() => finish('timeout'), timeoutMs);
        shutdown.signal.addEventListener('abort', onAbort);
        signal?.addEventListener('abort', onAbort);
        const subscription = services.events.subscribe({ after, tenant }, () => finish('event'));
        void subscription.failed.then((error) => {
          services.logger.warn('change feed wake-up subscription failed', { tenant, error });
          finish('timeout');
        });
      });
    },
    close() {
      shutdown.abort();
      return Promise.resolve();
    },
  };
}

const hubs = new WeakMap<AppServices, FeedHub>();

/** The hub of one running service (its services object): the routes and the shutdown path share it. */
export function feedHubOf(services: AppServices): FeedHub {
  let hub = hubs.get(services);
  if (!hub) hubs.set(services, (hub = createFeedHub(services)));
  return hub;
}
