// Claim, release and "work while holding" for the unique-value guards (uniqueClaim.ts): the reservation pattern of
// architecture.md, shared by every group whose records carry a value unique within the company.
import { DomainError, type Decider } from './decider.js';
import { handleCommand, type CommandContext } from './handleCommand.js';
import { uuidV5 } from './eventIds.js';
import type { UniqueClaimCommand, UniqueClaimEvent, UniqueClaimState } from './uniqueClaim.js';
import { streamName, type EventStore } from '../stores/eventStore.js';

export interface UniqueGuard {
  decider: Decider<UniqueClaimCommand, UniqueClaimEvent, UniqueClaimState>;
  /** Problem code of a refused claim (the decider's duplicate code). */
  duplicateCode: string;
  /** Category of the holders' streams: a holder whose stream is absent after the grace period lost its claim. */
  holderCategory: string;
  graceSeconds: number;
  /**
   * The value the holder carries now (its key), or null for none. A holder that no longer carries the claimed value (a
   * correction that stopped between moving to a new value and giving back the old one) holds it as an orphan would.
   */
  heldKey?(events: EventStore, tenantId: string, holderId: string): Promise<string | null>;
}

/** The value a claim is about, already normalised (the guard id derives from it). */
export interface Claim {
  holderId: string;
  key: string;
}

export const guardId = (guard: UniqueGuard, tenantId: string, key: string): string =>
  uuidV5(`${guard.decider.category}\u0000${tenantId}\u0000${key}`);

/** Claims the value for the holder; true when this call claimed it (false: the holder already held it). */
async function claim(events: EventStore, ctx: CommandContext, guard: UniqueGuard, c: Claim): Promise<boolean> {
  const send = (holder?: { exists: boolean; graceSeconds: number }) =>
    handleCommand(
      events,
      guard.decider,
      {
        type: 'ClaimUniqueValue',
        aggregateId: guardId(guard, ctx.tenantId, c.key),
        data: { holderId: c.holderId, value: c.key, ...(holder ? { holder } : {}) },
      },
      ctx,
    );
  let result;
  try {
    result = await send();
  } catch (err) {
    const holderId = err instanceof DomainError && err.code === guard.duplicateCode ? err.details?.existingId : undefined;
    if (typeof holderId !== 'string') throw err;
    const held = await events.readStream(streamName(ctx.tenantId, guard.holderCategory, holderId), { maxCount: 1 });
    const stillCarried = held.length > 0 && (!guard.heldKey || (await guard.heldKey(events, ctx.tenantId, holderId)) === c.key);
    if (stillCarried) throw err;
    result = await send({ exists: false, graceSeconds: guard.graceSeconds });
  }
  return result.events.some((e) => e.type === 'UniqueValueClaimed');
}

export async function releaseClaim(events: EventStore, ctx: CommandContext, guard: UniqueGuard, c: Claim): Promise<void> {
  await handleCommand(
    events,
    guard.decider,
    { type: 'ReleaseUniqueValue', aggregateId: guardId(guard, ctx.tenantId, c.key), data: { holderId: c.holderId } },
    { ...ctx, idempotencyKey: null },
  );
}

/** Runs `work` while holding every claim (taken in order); gives back what this call claimed when anything fails. */
export async function withClaims<T>(
  events: EventStore,
  ctx: CommandContext,
  claims: { guard: UniqueGuard; claim: Claim }[],
  work: () => Promise<T>,
): Promise<T> {
  const taken: { guard: UniqueGuard; claim: Claim }[] = [];
  try {
    for (const c of claims) if (await claim(events, ctx, c.guard, c.claim)) taken.push(c);
    return await work();
  } catch (err) {
    for (const c of taken.reverse()) await releaseClaim(events, ctx, c.guard, c.claim).catch(() => undefined);
    throw err;
  }
}
