// Child process of rebuildKilled.test.ts: over a SQLite event log and read store, a first start (`start`) or a
// rebuild (`rebuild`) of the stats projection kills itself with SIGKILL once its fresh collections hold documents.
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import { STATS, statsProjection } from '../support/projectionFixtures.js';
import type { Logger } from '../../src/logger.js';

const [eventsFile, readFile, tenant, mode, freshName] = process.argv.slice(2);
if (!eventsFile || !readFile || !tenant || !freshName || (mode !== 'start' && mode !== 'rebuild')) {
  throw new Error('usage: rebuildUntilKilled.ts <events file> <read file> <tenant> start|rebuild <fresh collection>');
}
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const events = await openSqliteEventStore({ file: eventsFile });
const reads = await openSqliteReadStore({ file: readFile });
const runner = createProjectionRunner({ events, reads, logger: quiet, batchSize: 25 });
runner.register(statsProjection(tenant));
if (mode === 'rebuild') await runner.start();

// Between two pages of the replay (the loop yields to timers there): some batches written, far from all.
const watch = setInterval(() => {
  void (async () => {
    if (!(await reads.listCollections()).includes(freshName)) return;
    if ((await (await reads.collection(freshName)).count(tenant)) < 40) return;
    process.kill(process.pid, 'SIGKILL');
  })();
}, 1);
await (mode === 'start' ? runner.start() : runner.rebuild(STATS));
clearInterval(watch);
process.stdout.write('finished before the kill\n');
await runner.stop();
process.exit(0);
