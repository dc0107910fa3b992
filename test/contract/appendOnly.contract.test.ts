// EventStore contract, continued: the log is append-only (issue 23 item 4, retention). The port offers no way to remove
// or rewrite an event, no implementation adds one, and neither adapter's code deletes, truncates or rewrites events
// (the SQLite statements; the EventStoreDB client calls: no deleteStream, tombstoneStream or truncating metadata).
// Members added later (a hash chain's head, say) are fine as long as none erases.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { eventStoreImplementations } from '../support/storeImplementations.js';

/** The port's members (src/stores/eventStore.ts): reads, appends, subscription, head, identity, close. */
const PORT = ['kind', 'appendToStream', 'readStream', 'readAll', 'subscribe', 'headPosition', 'identity', 'close'];
const ERASING = /delete|remove|truncate|purge|erase|tombstone|drop|clear|wipe|scavenge|rewrite|update|replace|set/i;

const sourceOf = (dir: string): string =>
  readdirSync(new URL(`../../src/stores/${dir}/`, import.meta.url))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(new URL(`../../src/stores/${dir}/${f}`, import.meta.url), 'utf8'))
    .join('\n');

for (const impl of eventStoreImplementations()) {
  describe(`EventStore contract, append-only: ${impl.name}`, function () {
    after(() => impl.cleanup());

    it('offers the port, and no member that removes or rewrites an event', async function () {
      const store = await impl.open();
      const members = Object.keys(store);
      assert.deepEqual(
        PORT.filter((m) => !members.includes(m)),
        [],
        'the port',
      );
      assert.deepEqual(
        members.filter((m) => m !== 'appendToStream' && ERASING.test(m)),
        [],
        'members that would erase',
      );
    });
  });
}

describe('EventStore adapters: no code path erases an event', () => {
  it('SQLite: the events table is only inserted into (no DELETE, UPDATE, DROP, TRUNCATE or REPLACE)', () => {
    const sql = sourceOf('sqlite');
    assert.match(sql, /INSERT INTO events\b/);
    assert.doesNotMatch(
      sql,
      /\b(DELETE\s+FROM\s+events|UPDATE\s+events|DROP\s+TABLE\s+events|TRUNCATE|REPLACE\s+INTO\s+events|INSERT\s+OR\s+REPLACE)\b/i,
    );
  });

  it('EventStoreDB: the adapter appends, reads and subscribes; it never deletes, tombstones or truncates a stream', () => {
    const esdb = sourceOf('eventstoredb');
    const calls = [...new Set([...esdb.matchAll(/\bclient\.(\w+)\(/g)].map((m) => m[1]!))].sort();
    assert.ok(calls.includes('appendToStream') && calls.includes('readStream'), calls.join());
    assert.deepEqual(
      calls.filter((c) => ERASING.test(c) && c !== 'appendToStream'),
      [],
      'client calls that would erase',
    );
    assert.doesNotMatch(esdb, /deleteStream|tombstoneStream|setStreamMetadata|truncateBefore|maxAge/);
  });
});
