// Ends a user's open sessions at once (deactivation, a revoked membership, a new password, a reset second factor):
// the next request with any of their tokens answers 401.
import { handleCommand } from '../handleCommand.js';
import { sessionDecider } from './session/decider.js';
import type { SessionRevocationReason } from './session/events.js';
import type { PlatformFacts } from './platformFacts.js';
import { awaitPlatformReadModels, platformContext, type PlatformCaller, type PlatformServices } from './platformWrites.js';

/** Which sessions are open (eventual, platformSessions); each is revoked on its own stream, which judges it (strong). */
export type SessionRevocationFacts = Pick<PlatformFacts, 'openSessionsOf' | 'caughtUp'>;

export async function revokeSessionsOf(
  services: PlatformServices<SessionRevocationFacts>,
  target: { userId: string; companyId?: string; exceptSessionId?: string | null },
  reason: SessionRevocationReason,
  caller: PlatformCaller,
): Promise<number> {
  let revoked = 0;
  let last: bigint | null = null;
  for await (const page of services.platformFacts.openSessionsOf(target)) {
    for (const sessionId of page) {
      if (sessionId === target.exceptSessionId) continue;
      const result = await handleCommand(
        services.events,
        sessionDecider,
        { type: 'RevokeSession', aggregateId: sessionId, data: { reason } },
        platformContext(services, caller),
      );
      if (result.position !== null) {
        revoked += 1;
        last = result.position;
      }
    }
  }
  await awaitPlatformReadModels(services, last, ['sessions']);
  return revoked;
}
