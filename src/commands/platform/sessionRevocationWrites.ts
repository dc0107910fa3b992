// Ends a user's open sessions at once (deactivation, a revoked membership, a new password, a reset second factor):
// the next request with any of their tokens answers 401.
import type { AppServices } from '../../services.js';
import { handleCommand } from '../handleCommand.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { LIMITS } from '../../limits.js';
import { sessionDecider } from './session/decider.js';
import type { SessionRevocationReason } from './session/events.js';
import { SESSIONS, type SessionDoc } from '../../projections/platform/platformReadModels.js';
import { awaitPlatformReadModels, platformContext, type PlatformCaller } from './platformWrites.js';

export async function revokeSessionsOf(
  services: AppServices,
  target: { userId: string; companyId?: string; exceptSessionId?: string | null },
  reason: SessionRevocationReason,
  caller: PlatformCaller,
): Promise<number> {
  const sessions = services.projections.collection<SessionDoc>(SESSIONS.projection, SESSIONS.collection);
  const filter: Record<string, unknown> = { userId: target.userId, endedReason: null };
  if (target.companyId) filter.companyId = target.companyId;
  let revoked = 0;
  let last: bigint | null = null;
  let after: string | null = null;
  do {
    const page = await sessions.find(PLATFORM_DOCS, filter, { limit: LIMITS.pagination.maxLimit, after });
    for (const session of page.items) {
      if (session.id === target.exceptSessionId) continue;
      const result = await handleCommand(
        services.events,
        sessionDecider,
        { type: 'RevokeSession', aggregateId: session.id, data: { reason } },
        platformContext(services, caller),
      );
      if (result.position !== null) {
        revoked += 1;
        last = result.position;
      }
    }
    after = page.nextCursor;
  } while (after);
  await awaitPlatformReadModels(services, last, [SESSIONS.projection]);
  return revoked;
}
