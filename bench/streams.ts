// Long streams stay cheap (issue 29 item 5): one stock issue (the real stock decider through handleCommand, on a real
// SQLite store) on a product's stock stream of N movements (default 100k) and on one of 10, without and with an
// Idempotency-Key, loaded from snapshots (the default) beside the whole fold (the decider opted out: the former load).
// Figures per command: wall time (median), CPU (process.cpuUsage), events read (every readStream/readEventById counted).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { handleCommand, type CommandContext } from '../src/commands/handleCommand.js';
import { stockDecider } from '../src/commands/productos/stockDecider.js';
import { stockId, type StockCommand, type StockEvent } from '../src/commands/productos/stockEvents.js';
import { newId } from '../src/commands/eventIds.js';
import { DEFAULT_SNAPSHOT_EVERY } from '../src/commands/snapshots.js';
import type { Decider } from '../src/commands/decider.js';
import type { StockState } from '../src/commands/productos/shared/stockState.js';
import { openSqliteEventStore } from '../src/stores/sqlite/sqliteEventStore.js';
import { streamName, type EventMetadata, type EventStore } from '../src/stores/eventStore.js';

export interface StreamFigures {
  stream: number;
  load: 'snapshot' | 'whole';
  key: 'none' | 'new' | 'retry';
  runs: number;
  medianMs: number;
  /** Mean CPU of the process per command (snapshots taken on the way included). */
  cpuMicrosPerCommand: number;
  cpuMicrosMedian: number;
  eventsRead: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** CPU µs of the process (microsecond resolution; the thread's own clock, `threadCpuUsage`, ticks every 4 ms here). */
const cpuNow = (): number => {
  const used = process.cpuUsage();
  return used.user + used.system;
};
const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();

const TENANT = 'benchstreams';
const PRODUCT = { active: true, lotTracked: false, expiryTracked: false, prescriptionDrug: false, countable: true, cost: 2 };
const wholeFold: Decider<StockCommand, StockEvent, StockState> = {
  ...stockDecider,
  snapshot: { never: 'the former whole fold, for comparison' },
};

/** A store that counts the events each read returns (the cost the section is about). */
function counted(inner: EventStore): { store: EventStore; read: () => number } {
  let events = 0;
  const store: EventStore = {
    ...inner,
    readStream: async (s, o) => {
      const out = await inner.readStream(s, o);
      events += out.length;
      return out;
    },
    readEventById: async (s, id) => {
      const out = await inner.readEventById(s, id);
      events += out ? 1 : 0;
      return out;
    },
  };
  return { store, read: () => events };
}

const metadata = (): EventMetadata => ({
  tenantId: TENANT,
  actor: 'bench',
  sessionId: null,
  correlationId: 'bench',
  causationId: null,
  commandId: newId(),
  occurredAt: new Date().toISOString(),
  ip: null,
  userAgent: null,
  reason: null,
});

const command = (productId: string, type: 'ReceiveStock' | 'IssueStock', quantity: number) =>
  ({
    type,
    aggregateId: stockId(productId, 'w1'),
    data: {
      movementId: newId(),
      productId,
      warehouseId: 'w1',
      product: PRODUCT,
      today: '2026-11-27',
      quantity,
      ...(type === 'ReceiveStock'
        ? { supplier: 'Droguería Sur', documentNumber: 'F001-1', unitCost: { amount: 2, currency: 'PEN' } }
        : { reference: { kind: 'consumption' } }),
    },
  }) as unknown as Omit<StockCommand, 'at' | 'actor' | 'tenantId'>;

/** `count` movements decided by the real decider (receipts of 100, an issue of 1 every fourth), appended in batches of 1,000. */
async function writeHistory(store: EventStore, productId: string, count: number): Promise<void> {
  const stream = streamName(TENANT, stockDecider.category, stockId(productId, 'w1'));
  let state = stockDecider.initialState;
  let revision = -1;
  for (let i = 0; i < count; i += 1000) {
    const batch = [];
    for (let j = 0; j < Math.min(1000, count - i); j++) {
      const c = command(productId, (i + j) % 4 === 3 ? 'IssueStock' : 'ReceiveStock', (i + j) % 4 === 3 ? 1 : 100);
      const full = { ...c, at: new Date().toISOString(), actor: 'bench', tenantId: TENANT } as StockCommand;
      for (const e of stockDecider.decide(full, state)) {
        state = stockDecider.evolve(state, e);
        batch.push({ id: newId(), type: e.type, data: e.data as unknown as Record<string, unknown>, metadata: metadata() });
      }
    }
    revision = (await store.appendToStream(stream, batch, { expectedRevision: revision < 0 ? 'no_stream' : revision }))
      .nextExpectedRevision;
  }
}

export async function benchStreams(opts: { events: number; runs: number; log: (s: string) => void }): Promise<StreamFigures[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-streams-'));
  const inner = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const { store, read } = counted(inner);
  const ctx = (key: string | null): CommandContext => ({
    tenantId: TENANT,
    actor: 'bench',
    sessionId: null,
    correlationId: newId(),
    idempotencyKey: key,
    ip: null,
    userAgent: null,
  });
  try {
    const started = performance.now();
    await writeHistory(inner, 'long', opts.events);
    opts.log(`  ${opts.events} movements written in ${Math.round(performance.now() - started)} ms`);
    // The first load folds it whole and takes the snapshot; a keyed issue made before it is the one retried below.
    const first = performance.now();
    await handleCommand(store, stockDecider, command('long', 'IssueStock', 1), ctx(null));
    opts.log(
      `  first load of the ${opts.events}-event stream (folds it whole, takes the snapshot): ${Math.round(performance.now() - first)} ms`,
    );
    await handleCommand(store, stockDecider, command('long', 'IssueStock', 1), ctx('retry-long'));
    for (let i = 0; i < 2 * DEFAULT_SNAPSHOT_EVERY; i++)
      await handleCommand(store, stockDecider, command('long', 'IssueStock', 1), ctx(null));

    let fresh = 0;
    let keyed = 0;
    /** The stream a run works on: the long one, or a fresh one of 10 movements each time (so it stays 10 long). */
    const target = async (length: number, key: 'none' | 'new' | 'retry'): Promise<{ productId: string; key: string | null }> => {
      const productId = length === opts.events ? 'long' : `short-${fresh++}`;
      if (productId !== 'long') await writeHistory(inner, productId, length);
      if (key === 'none') return { productId, key: null };
      if (key === 'new') return { productId, key: `new-${keyed++}` };
      if (productId === 'long') return { productId, key: 'retry-long' };
      await handleCommand(store, stockDecider, command(productId, 'IssueStock', 1), ctx(`retry-${productId}`));
      return { productId, key: `retry-${productId}` };
    };
    const figures: StreamFigures[] = [];
    for (const length of [opts.events, 10]) {
      for (const key of ['none', 'new', 'retry'] as const) {
        // The whole fold of the long stream takes a while: fewer runs of it. The loads run one after the other, each
        // after a full GC when the bench exposes it: a whole fold's 100k events of garbage are not collected on the
        // snapshot load's clock (with the two alternating, the mean CPU of a snapshot load swung 0.8-4.7x run to run).
        const runsOf = { snapshot: opts.runs, whole: length > 1000 ? Math.max(3, Math.round(opts.runs / 20)) : opts.runs };
        for (const load of ['snapshot', 'whole'] as const) {
          const times: number[] = [];
          const cpus: number[] = [];
          let events = 0;
          collectGarbage();
          for (let r = 0; r < runsOf[load]; r++) {
            const on = await target(length, key);
            const before = { read: read(), cpu: cpuNow(), at: performance.now() };
            await handleCommand(store, load === 'snapshot' ? stockDecider : wholeFold, command(on.productId, 'IssueStock', 1), ctx(on.key));
            times.push(performance.now() - before.at);
            cpus.push(cpuNow() - before.cpu);
            events += read() - before.read;
          }
          figures.push({
            stream: length,
            load,
            key,
            runs: times.length,
            medianMs: Math.round(median(times) * 100) / 100,
            cpuMicrosPerCommand: Math.round(cpus.reduce((a, b) => a + b, 0) / cpus.length),
            cpuMicrosMedian: Math.round(median(cpus)),
            eventsRead: Math.round(events / times.length),
          });
        }
      }
    }
    return figures;
  } finally {
    await inner.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
