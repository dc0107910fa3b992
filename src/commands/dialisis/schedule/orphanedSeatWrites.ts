// Reconciliation of the seat reservation: a seat claimed for a session whose stream never appeared (the process stopped
// between the claim and the scheduling) is given back once older than the grace period. Run at start and periodically.
import { handleCommand, type CommandContext } from '../../handleCommand.js';
import { newId } from '../../eventIds.js';
import { LIMITS } from '../../../limits.js';
import type { AppServices } from '../../../services.js';
import { streamName } from '../../../stores/eventStore.js';
import { sessionDecider } from '../session/sessionDecider.js';
import { shiftDayDecider } from './shiftDayDecider.js';
import type { ScheduleFacts } from './scheduleFacts.js';
import type { ScheduleDeps } from './seatWrites.js';

const systemCtx = (deps: ScheduleDeps, tenantId: string): CommandContext => ({
  tenantId,
  actor: 'system',
  sessionId: null,
  correlationId: newId(),
  ip: null,
  userAgent: null,
  reason: 'seat of a session that was never scheduled',
  at: deps.now().toISOString(),
});

async function releaseInTenant(deps: ScheduleDeps, tenantId: string): Promise<number> {
  const ctx = systemCtx(deps, tenantId);
  let released = 0;
  let after: string | null = null;
  do {
    const page = await deps.facts.unscheduledSeats(tenantId, after, LIMITS.pagination.maxLimit);
    for (const day of page.items) {
      for (const seat of day.seats.filter((s) => !s.scheduled)) {
        // The session's own stream decides, not the read model: it may simply not have caught up yet.
        const session = await deps.events.readStream(streamName(tenantId, sessionDecider.category, seat.sessionId), { maxCount: 1 });
        const data = { sessionId: seat.sessionId, sessionExists: session.length > 0, graceSeconds: LIMITS.shiftSeats.orphanGraceSeconds };
        const result = await handleCommand(deps.events, shiftDayDecider, { type: 'ReleaseOrphanedSeat', aggregateId: day.id, data }, ctx);
        released += result.events.length;
      }
    }
    after = page.nextCursor;
  } while (after);
  return released;
}

/** Gives back the seats whose session never appeared, in one company or in all; answers how many were released. */
export async function releaseOrphanedSeats(deps: ScheduleDeps, tenantId?: string): Promise<number> {
  let released = 0;
  for (const tenant of tenantId ? [tenantId] : await deps.facts.companyIds()) released += await releaseInTenant(deps, tenant);
  return released;
}

/** Runs at start and periodically with the group (the composition root's periodic tasks), with the group's facts. */
export const orphanedSeatsTask = (loadFacts: (services: AppServices) => ScheduleFacts) => ({
  name: 'shift-seat-reconciliation',
  reconciliation: true,
  everyMs: LIMITS.shiftSeats.orphanGraceSeconds * 1000,
  run: async (services: AppServices): Promise<void> => {
    const released = await releaseOrphanedSeats({ events: services.events, now: () => services.now(), facts: loadFacts(services) });
    if (released > 0) services.logger.warn('released shift seats of sessions that were never scheduled', { count: released });
  },
});
