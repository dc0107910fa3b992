// Location commands as the routes run them. Station codes are unique within their location, so the location's own
// decider keeps them; registry codes are unique within the company, so a guard stream reserves each one first.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError, notFound } from '../decider.js';
import { newId, uuidV5 } from '../eventIds.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { locationDecider, type LocationState } from './locationDecider.js';
import type { LocationCommand, LocationPatch } from './locationEvents.js';
import { registryCodeGuardDecider, registryCodeKey, type RegistryHolderFacts } from './registryCodeGuard.js';

/** A retried request (same Idempotency-Key) names the same new id; otherwise a fresh one. */
export const newEntityId = (kind: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${idempotencyKey}`) : newId();

const guardId = (tenantId: string, registryCode: string): string =>
  uuidV5(`locationRegistryCode\u0000${tenantId}\u0000${registryCodeKey(registryCode)}`);

/** Claims the code for the location; true when this call claimed it (false: the location already held it). */
async function claimCode(events: EventStore, ctx: CommandContext, locationId: string, registryCode: string): Promise<boolean> {
  const claim = (holder?: RegistryHolderFacts) =>
    handleCommand(
      events,
      registryCodeGuardDecider,
      {
        type: 'ClaimRegistryCode',
        aggregateId: guardId(ctx.tenantId, registryCode),
        data: { locationId, registryCode, ...(holder ? { holder } : {}) },
      },
      { ...ctx, idempotencyKey: null },
    );
  let result;
  try {
    result = await claim();
  } catch (err) {
    const holderId = err instanceof DomainError && err.code === 'duplicate-registry-code' ? err.details?.existingLocationId : undefined;
    if (typeof holderId !== 'string') throw err;
    // A claim whose location never appeared (a crash between claim and append) is taken over after the grace period.
    const holderEvents = await events.readStream(streamName(ctx.tenantId, locationDecider.category, holderId), { maxCount: 1 });
    if (holderEvents.length > 0) throw err;
    result = await claim({ exists: false, graceSeconds: LIMITS.documentGuard.orphanedClaimGraceSeconds });
  }
  return result.events.some((e) => e.type === 'LocationRegistryCodeClaimed');
}

async function releaseCode(events: EventStore, ctx: CommandContext, locationId: string, registryCode: string): Promise<void> {
  await handleCommand(
    events,
    registryCodeGuardDecider,
    { type: 'ReleaseRegistryCode', aggregateId: guardId(ctx.tenantId, registryCode), data: { locationId } },
    { ...ctx, idempotencyKey: null },
  );
}

/** Runs `work` holding the registry code (none: no claim); gives the code back when `work` fails. */
async function withCode<T>(
  events: EventStore,
  ctx: CommandContext,
  locationId: string,
  registryCode: string | null | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!registryCode?.trim()) return work();
  const claimed = await claimCode(events, ctx, locationId, registryCode.trim());
  try {
    return await work();
  } catch (err) {
    if (claimed) await releaseCode(events, ctx, locationId, registryCode.trim()).catch(() => undefined);
    throw err;
  }
}

export async function openLocation(
  events: EventStore,
  ctx: CommandContext,
  data: Extract<LocationCommand, { type: 'OpenLocation' }>['data'],
): Promise<{ locationId: string; result: CommandResult<LocationState> }> {
  const locationId = newEntityId('location', ctx.idempotencyKey);
  const command = { type: 'OpenLocation' as const, aggregateId: locationId, data };
  // Check the data first (pure), so a refused location never holds a code.
  locationDecider.decide(
    { ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId },
    locationDecider.initialState,
  );
  const result = await withCode(events, ctx, locationId, data.registryCode, () =>
    handleCommand(events, locationDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { locationId, result };
}

/** A correction; a new registry code is claimed first and the old one released after. */
export async function correctLocation(
  events: EventStore,
  ctx: CommandContext,
  locationId: string,
  patch: LocationPatch,
  ifMatch: number,
): Promise<CommandResult<LocationState>> {
  const command = { type: 'CorrectLocation' as const, aggregateId: locationId, data: patch };
  const { state, revision } = await loadAggregate(events, locationDecider, streamName(ctx.tenantId, locationDecider.category, locationId));
  if (!state.exists) throw notFound('location');
  if (ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const before = state.details.registryCode;
  const after = patch.registryCode === undefined ? before : patch.registryCode;
  const key = (code: string | null) => (code?.trim() ? registryCodeKey(code) : null);
  if (key(before) === key(after)) return handleCommand(events, locationDecider, command, ctx, { ifMatch });
  const result = await withCode(events, ctx, locationId, after, () => handleCommand(events, locationDecider, command, ctx, { ifMatch }));
  if (before) await releaseCode(events, ctx, locationId, before);
  return result;
}

type OtherCommand = Exclude<LocationCommand, { type: 'OpenLocation' | 'CorrectLocation' }>;

export function locationCommand<T extends OtherCommand['type']>(
  events: EventStore,
  ctx: CommandContext,
  locationId: string,
  type: T,
  data: Extract<OtherCommand, { type: T }>['data'],
  ifMatch: number | null,
): Promise<CommandResult<LocationState>> {
  return handleCommand(events, locationDecider, { type, aggregateId: locationId, data }, ctx, { ifMatch });
}
