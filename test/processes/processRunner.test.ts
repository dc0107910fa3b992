// Process managers over a real SQLite log and the embedded read store: they react once per event of their types,
// resume from their checkpoint after a restart, and retry a reaction that failed instead of skipping it.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { createEmbeddedReadStore } from '../../src/stores/embedded/embeddedReadStore.js';
import { startProcessManagers, type ProcessManager } from '../../src/processes/processRunner.js';
import type { EventStore, RecordedEvent } from '../../src/stores/eventStore.js';
import { PLATFORM_DOCS } from '../../src/stores/readStore.js';
import type { Logger } from '../../src/logger.js';
import { faultyReadStore } from '../support/faultyStores.js';

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** `count` events of one type in one append; the position of the last. */
async function appendMany(events: EventStore, stream: string, type: string, count: number): Promise<bigint> {
  const metadata = {
    tenantId: 't1',
    actor: 'u1',
    sessionId: null,
    correlationId: 'c1',
    causationId: null,
    commandId: randomUUID(),
    occurredAt: new Date().toISOString(),
    ip: null,
    userAgent: null,
    reason: null,
  };
  const batch = Array.from({ length: count }, () => ({ id: randomUUID(), type, data: {}, metadata }));
  return (await events.appendToStream(stream, batch, { expectedRevision: 'any' })).position;
}

const append = (events: EventStore, stream: string, type: string): Promise<bigint> => appendMany(events, stream, type, 1);

describe('process managers', () => {
  let dir: string;
  let events: EventStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'processes-'));
    events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await events.close();
    await rm(dir, { recursive: true, force: true });
  });

  const counting = (seen: string[], failFirst = 0): ProcessManager<null> => {
    let failures = failFirst;
    return {
      name: 'counting',
      eventTypes: ['Ended'],
      async react(event: RecordedEvent) {
        if (failures-- > 0) throw new Error('store briefly unavailable');
        seen.push(event.id);
      },
    };
  };

  it('reacts to its event types only, and resumes after its checkpoint when started again', async () => {
    const reads = createEmbeddedReadStore();
    const seen: string[] = [];
    const first = startProcessManagers({ events, reads, logger: quiet, services: () => null }, [counting(seen)]);
    await append(events, 't1.session-a', 'Started');
    const end = await append(events, 't1.session-a', 'Ended');
    assert.equal(await first.waitFor(end), true);
    assert.equal(seen.length, 1);
    await first.stop();

    const later = await append(events, 't1.session-b', 'Ended');
    const second = startProcessManagers({ events, reads, logger: quiet, services: () => null }, [counting(seen)]);
    assert.equal(await second.waitFor(later), true);
    assert.equal(seen.length, 2, 'the first event is not handled again after the restart');
    await second.stop();
  });

  it('retries a failed reaction from its checkpoint instead of skipping the event', async () => {
    const reads = createEmbeddedReadStore();
    const seen: string[] = [];
    const runner = startProcessManagers({ events, reads, logger: quiet, services: () => null }, [counting(seen, 2)]);
    const end = await append(events, 't1.session-a', 'Ended');
    assert.equal(await runner.waitFor(end, 20_000), true);
    assert.equal(seen.length, 1);
    await runner.stop();
  });

  it('moves its checkpoint over events of other types, so a start does not replay the log from the beginning', async () => {
    const reads = createEmbeddedReadStore();
    const seen: string[] = [];
    const runner = startProcessManagers({ events, reads, logger: quiet, services: () => null }, [counting(seen)]);
    let head = 0n;
    for (let i = 0; i < 1_200; i++) head = await append(events, `t1.session-${i}`, 'Started');
    assert.equal(await runner.waitFor(head, 20_000), true);
    const checkpoints = await reads.collection<{ id: string; tenantId: string; position: string }>('process_checkpoints');
    const during = await checkpoints.get(PLATFORM_DOCS, 'counting');
    assert.ok(during && BigInt(during.position) >= 1_000n, `checkpoint while running: ${during?.position}`);
    await runner.stop();
    const after = await checkpoints.get(PLATFORM_DOCS, 'counting');
    assert.equal(after?.position, head.toString(), 'stopping keeps the position reached');
    assert.equal(seen.length, 0);
  });

  it('passes events of other types while its checkpoint cannot be written, and moves it once it can', async () => {
    const { store: reads, faults } = faultyReadStore(createEmbeddedReadStore());
    const warned: string[] = [];
    const logger: Logger = { ...quiet, warn: (msg) => void warned.push(msg), error: (msg) => void warned.push(`error: ${msg}`) };
    const runner = startProcessManagers({ events, reads, logger, services: () => null }, [counting([])]);
    faults.writesDown = true; // the store refuses writes for a while (SQLite busy, a primary stepping down)
    const passed = await appendMany(events, 't1.session-a', 'Started', 1_100);
    assert.equal(await runner.waitFor(passed, 10_000), true, 'the events passed while the checkpoint could not be written');
    assert.deepEqual(warned, [], 'a short refusal is retried at the next save, not logged');
    faults.writesDown = false;
    const later = await appendMany(events, 't1.session-b', 'Started', 1_100);
    assert.equal(await runner.waitFor(later, 10_000), true);
    const checkpoints = await reads.collection<{ id: string; tenantId: string; position: string }>('process_checkpoints');
    const saved = await checkpoints.get(PLATFORM_DOCS, 'counting');
    assert.ok(saved && BigInt(saved.position) > passed, `checkpoint moved past the refused saves: ${saved?.position}`);
    await runner.stop();
  });

  it('warns once when its checkpoint has not been movable for longer than allowed', async () => {
    const { store: reads, faults } = faultyReadStore(createEmbeddedReadStore());
    const warned: string[] = [];
    const logger: Logger = { ...quiet, warn: (msg) => void warned.push(msg) };
    const runner = startProcessManagers({ events, reads, logger, services: () => null, skipSavesWarnAfterMs: 0 }, [counting([])]);
    faults.writesDown = true;
    const passed = await appendMany(events, 't1.session-a', 'Started', 3_300);
    assert.equal(await runner.waitFor(passed, 10_000), true);
    assert.deepEqual(warned, ['process manager checkpoint not moved over the events it passed for a minute; the next save moves it']);
    faults.writesDown = false;
    await runner.stop();
  });

  it('reacts to the events its `accepts` picks instead of a list of types (any type of the company streams)', async () => {
    const reads = createEmbeddedReadStore();
    const seen: string[] = [];
    const manager: ProcessManager<null> = {
      name: 'picking',
      eventTypes: [],
      accepts: (event) => event.streamName.startsWith('t1.session-'),
      react: (event: RecordedEvent) => Promise.resolve(void seen.push(event.type)),
    };
    const runner = startProcessManagers({ events, reads, logger: quiet, services: () => null }, [manager]);
    await append(events, 't1.session-a', 'Started');
    await append(events, 't1.note-a', 'Written');
    const end = await append(events, 't1.session-a', 'Ended');
    assert.equal(await runner.waitFor(end), true);
    assert.deepEqual(seen, ['Started', 'Ended']);
    await runner.stop();
  });

  it('does not write its checkpoint for a reaction that says nothing came of it (false)', async () => {
    const reads = createEmbeddedReadStore();
    const idle: ProcessManager<null> = { name: 'idle', eventTypes: ['Ended'], react: () => Promise.resolve(false) };
    const runner = startProcessManagers({ events, reads, logger: quiet, services: () => null }, [idle]);
    const end = await append(events, 't1.session-a', 'Ended');
    assert.equal(await runner.waitFor(end), true);
    const checkpoints = await reads.collection<{ id: string; tenantId: string; position: string }>('process_checkpoints');
    assert.equal(await checkpoints.get(PLATFORM_DOCS, 'idle'), null);
    await runner.stop();
    assert.equal((await checkpoints.get(PLATFORM_DOCS, 'idle'))?.position, end.toString(), 'kept at stop');
  });
});
