// Child process of schemaRace.test.ts: waits for a shared start instant, then opens (and so creates) the event
// file, and reports whether the open worked.
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';

const [file, startAt] = process.argv.slice(2);
if (!file || !startAt) throw new Error('usage: openAtOnce.ts <file> <epoch ms>');
while (Date.now() < Number(startAt)); // spin: every child leaves this loop within the same millisecond or so
try {
  const store = await openSqliteEventStore({ file });
  await store.close();
  process.stdout.write('opened\n');
} catch (err) {
  process.stdout.write(`failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
