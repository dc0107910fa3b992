// Read-your-writes: a query carrying `minPosition` (the X-Event-Position of the client's write) first
// waits, bounded, until its read model has applied that position.
import { ProblemError } from '../problems.js';
import { LIMITS } from '../limits.js';
import type { RequestContext } from './routeTypes.js';

export const projectionBehind = (): ProblemError =>
  new ProblemError(503, 'projection-behind', 'Service Unavailable', 'The read model has not reached minPosition yet; retry shortly', {
    'Retry-After': '1',
  });

/** Resolves once the projections (all, or those named) have applied `minPosition`; 503 when the wait runs out. */
export async function awaitMinPosition(ctx: RequestContext, minPosition: string | null | undefined, projections?: string[]): Promise<void> {
  if (minPosition === undefined || minPosition === null || minPosition === '') return;
  const reached = await ctx.services.projections.waitFor(BigInt(minPosition), {
    timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    ...(projections ? { projections } : {}),
  });
  if (!reached) throw projectionBehind();
}
