// After a start over an existing log (a crash restart), the event store holds appends until its integrity check
// passed: a write waits for that a bounded time, then answers 503 problem+json with Retry-After; it never hangs.
import type Koa from 'koa';
import { ProblemError } from '../problems.js';
import { LIMITS } from '../limits.js';
import { backgroundIntegrityOf } from '../stores/sqlite/integrityCheck.js';
import type { AppServices } from '../services.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const writesHeld = (reason: string): ProblemError =>
  new ProblemError(
    503,
    'writes-held',
    'Service Unavailable',
    `Writes are held while the service starts (${reason}); retry shortly`,
    { 'Retry-After': String(LIMITS.startupWrites.retryAfterSeconds) },
    undefined,
    { reason },
  );

/** Resolves true once `settled` does, false after `ms`. */
async function within(settled: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settled.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function holdWritesWhileStarting(services: Pick<AppServices, 'events'>): Koa.Middleware {
  const check = backgroundIntegrityOf(services.events);
  return async (ctx, next) => {
    if (check && check.integrityState === 'checking' && !READS.has(ctx.method)) {
      // A failed check settles too: the route's append then answers as for an unusable store.
      const settled = await within(
        check.integrity.catch(() => undefined),
        LIMITS.startupWrites.maxWaitMs,
      );
      if (!settled) throw writesHeld('integrity-check');
    }
    await next();
  };
}
