// Read-your-writes: a query carrying `minPosition` (the X-Event-Position consistency token of the client's write)
// first waits, bounded, until its read model has applied that write.
import { ProblemError, readModelBehind } from '../problems.js';
import { LIMITS } from '../limits.js';
import type { RequestContext } from './routeTypes.js';
import { consistencyTokens } from './consistencyToken.js';

const invalidMinPosition = (detail: string): ProblemError =>
  new ProblemError(400, 'invalid-min-position', 'Bad Request', detail, {}, [{ pointer: '/query/minPosition', message: detail }]);

export const projectionBehind = (): ProblemError => readModelBehind('The read model has not reached minPosition yet; retry shortly');

/** Resolves once the projections (all, or those named) have applied `minPosition`; 503 when the wait runs out. */
export async function awaitMinPosition(
  ctx: RequestContext,
  minPosition: string | null | undefined,
  projections?: readonly string[],
): Promise<void> {
  if (minPosition === undefined || minPosition === null || minPosition === '') return;
  const position = (await consistencyTokens(ctx.services)).open(minPosition);
  if (position === null) throw invalidMinPosition('minPosition must be the X-Event-Position of a write to this service');
  // Beyond the head it was never written here (a restored backup, another deployment): no wait can reach it.
  if (position > (await ctx.services.events.headPosition()))
    throw invalidMinPosition('minPosition names a write this service does not have');
  const reached = await ctx.services.projections.waitFor(position, {
    timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    ...(projections ? { projections } : {}),
  });
  if (!reached) throw projectionBehind();
}
