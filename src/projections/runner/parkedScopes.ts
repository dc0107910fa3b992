// Poison events park a scope, not the projection: a handler that throws on valid history stops applying that
// tenant's events (for a platform aggregate, that one stream's: parking the platform tenant would stop every
// sign-in), records why, and the projection goes on with everything else. The record travels with the checkpoint;
// it holds one entry per parked scope (bounded by tenants and platform aggregates) and a rebuild starts it afresh.
import { PLATFORM_TENANT, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export interface ParkedEntry {
  /** 'tenant': every later event of the tenant is skipped; 'stream': only the later events of `stream`. */
  scope: 'tenant' | 'stream';
  tenantId: string;
  stream?: string;
  /** Global position of the poison event (decimal string): events from here on in the scope are skipped. */
  position: string;
  eventType: string;
  eventStream: string;
  error: string;
  /** When it was parked (ISO-8601, the service clock). */
  parkedAt: string;
}

function scopeKey(stream: string): string {
  const tenant = tenantOfStream(stream);
  return tenant === PLATFORM_TENANT ? stream : tenant;
}

export class ParkedScopes {
  private readonly byKey = new Map<string, { position: bigint; entry: ParkedEntry }>();
  /** Changed since the checkpoint last recorded it. */
  dirty = false;

  static from(entries: readonly ParkedEntry[] | undefined): ParkedScopes {
    const parked = new ParkedScopes();
    for (const entry of entries ?? []) {
      const key = entry.scope === 'stream' ? entry.stream! : entry.tenantId;
      parked.byKey.set(key, { position: BigInt(entry.position), entry });
    }
    return parked;
  }

  get size(): number {
    return this.byKey.size;
  }

  /** True when the event falls in a parked scope at or after its poison event (earlier ones replay normally). */
  covers(event: RecordedEvent): boolean {
    const parked = this.byKey.get(scopeKey(event.streamName));
    return parked !== undefined && event.position >= parked.position;
  }

  /** True when `tenant` (as a whole) was parked at or before `position`: its read model will not show that write. */
  blocksTenant(tenant: string, position: bigint): boolean {
    const parked = this.byKey.get(tenant);
    return parked !== undefined && parked.entry.scope === 'tenant' && parked.position <= position;
  }

  park(event: RecordedEvent, error: string, at: Date): ParkedEntry {
    const tenantId = tenantOfStream(event.streamName);
    const scope = tenantId === PLATFORM_TENANT ? 'stream' : 'tenant';
    const entry: ParkedEntry = {
      scope,
      tenantId,
      ...(scope === 'stream' ? { stream: event.streamName } : {}),
      position: event.position.toString(),
      eventType: event.type,
      eventStream: event.streamName,
      error,
      parkedAt: at.toISOString(),
    };
    this.byKey.set(scopeKey(event.streamName), { position: event.position, entry });
    this.dirty = true;
    return entry;
  }

  list(): ParkedEntry[] {
    return [...this.byKey.values()].map((p) => p.entry);
  }
}
