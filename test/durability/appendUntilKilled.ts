// Child process of killNine.test.ts: appends to a SQLite event file as fast as it can from several
// concurrent writers and prints one JSON line per acknowledged append, until it is killed.
import { randomUUID } from 'node:crypto';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { walFlushesInFlight } from '../../src/stores/sqlite/walDurability.js';
import { streamName } from '../../src/stores/eventStore.js';
import { newEvent } from '../support/eventFixtures.js';

const [file, writersArg] = process.argv.slice(2);
if (!file) throw new Error('usage: appendUntilKilled.ts <file> [writers]');
const writers = Number(writersArg ?? 8);
// WAL_FLUSHES_IN_FLIGHT as the service reads it: `WAL_FLUSHES_IN_FLIGHT=2 npx mocha test/durability/killNine.test.ts`.
const store = await openSqliteEventStore({ file, walFlushesInFlight: walFlushesInFlight(process.env.WAL_FLUSHES_IN_FLIGHT) });

async function writer(w: number): Promise<never> {
  const stream = streamName('killtest', 'patient', `w${w}`);
  let revision = (await store.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]?.revision ?? -1;
  for (let n = 0; ; n++) {
    const events = Array.from({ length: 1 + (n % 3) }, () => newEvent('killtest', { w, n, nonce: randomUUID() }));
    const result = await store.appendToStream(stream, events, { expectedRevision: revision < 0 ? 'no_stream' : revision });
    revision = result.nextExpectedRevision;
    // Written only after the append resolved: every printed line is an acknowledged, durable append.
    process.stdout.write(
      `${JSON.stringify({ stream, ids: events.map((e) => e.id), lastRevision: revision, position: String(result.position) })}\n`,
    );
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
