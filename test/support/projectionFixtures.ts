// Projections for the runner's contract suites: counts per stream and totals per tenant, and one that throws on
// events marked `explode` (a poison event). Each only looks at the tenants it is given (a shared server holds others').
import { tenantOfStream } from '../../src/stores/eventStore.js';
import { applyTo, type ProjectedDoc, type Projection } from '../../src/projections/runner/projection.js';
import type { ProjectionRunner } from '../../src/projections/runner/runnerTypes.js';
import type { Logger } from '../../src/logger.js';

export interface StreamDoc extends ProjectedDoc {
  count: number;
  items: string[];
  lastRevision: number;
}
export interface TotalsDoc extends ProjectedDoc {
  events: number;
  closed: number;
}

export const STATS = 'streamStats';
export const COUNTED_TYPES = ['ItemAdded', 'ItemRemoved', 'StreamClosed'];

/** Counts and lists per stream, and totals per tenant; only `tenant`'s events (a shared server holds others'). */
export function statsProjection(tenant: string, options: { version?: number; calls?: { n: number } } = {}): Projection {
  return {
    name: STATS,
    version: options.version ?? 1,
    collections: { streams: [{ keys: { tenantId: 1, count: -1 } }], totals: [] },
    eventTypes: COUNTED_TYPES,
    async handle(event, tx) {
      const tenantId = tenantOfStream(event.streamName);
      if (tenantId !== tenant) return;
      if (options.calls) options.calls.n++;
      const item = (event.data.item as string | undefined) ?? '';
      await applyTo<StreamDoc>(tx, 'streams', tenantId, event.streamName, event, (doc) => {
        if (event.type === 'StreamClosed') return null;
        const base = doc ?? { tenantId, id: event.streamName, count: 0, items: [], lastRevision: -1 };
        const items = event.type === 'ItemAdded' ? [...base.items, item] : base.items.filter((i) => i !== item);
        return { ...base, count: base.count + 1, items, lastRevision: event.revision };
      });
      await applyTo<TotalsDoc>(tx, 'totals', tenantId, 'all', event, (doc) => ({
        tenantId,
        id: 'all',
        events: (doc?.events ?? 0) + 1,
        closed: (doc?.closed ?? 0) + (event.type === 'StreamClosed' ? 1 : 0),
      }));
    },
  };
}

/**
 * Counts every event of the given tenants in 'seen' (one document per tenant), and throws on an event carrying
 * `explode`, after having written its count: the runner must undo that write and park the event's tenant.
 */
export function fragileProjection(...tenants: string[]): Projection {
  return {
    name: 'fragile',
    version: 1,
    collections: { seen: [] },
    eventTypes: COUNTED_TYPES,
    async handle(event, tx) {
      const tenantId = tenantOfStream(event.streamName);
      if (!tenants.includes(tenantId)) return;
      await applyTo<TotalsDoc>(tx, 'seen', tenantId, 'count', event, (doc) => ({
        tenantId,
        id: 'count',
        events: (doc?.events ?? 0) + 1,
        closed: 0,
      }));
      if (event.data.explode) throw new Error('fragile projection cannot handle this event');
    },
  };
}

export async function snapshotOf(runner: ProjectionRunner, tenant: string) {
  const streams = await runner.collection<StreamDoc>(STATS, 'streams').find(tenant, {}, { sort: { id: 1 } });
  const totals = await runner.collection<TotalsDoc>(STATS, 'totals').get(tenant, 'all');
  return { streams: streams.items, totals };
}

/** A logger that keeps what it is told, by level. */
export function recordingLogger(): Logger & { lines: Array<{ level: string; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: string; msg: string } & Record<string, unknown>> = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, ...fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
