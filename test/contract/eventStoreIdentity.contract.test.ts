// EventStore contract, continued: every log has an identity of its own, the same on every handle (and every process)
// that opens it, so projection checkpoints can tell a position of this log from one of another.
import assert from 'node:assert/strict';
import { eventStoreImplementations } from '../support/storeImplementations.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

for (const impl of eventStoreImplementations()) {
  describe(`EventStore contract, identity: ${impl.name}`, function () {
    after(() => impl.cleanup());

    it('is the same on every handle on one log, and another log has another', async function () {
      const first = await impl.open();
      const identity = await first.identity();
      assert.match(identity, UUID);
      assert.equal(await first.identity(), identity, 'stable');
      const second = await impl.open(); // SQLite: a second handle on the same file; EventStoreDB: the same server
      assert.equal(await second.identity(), identity);

      const elsewhere = eventStoreImplementations().find((i) => i.name === 'sqlite')!; // a fresh file: another log
      try {
        assert.notEqual(await (await elsewhere.open()).identity(), identity);
      } finally {
        await elsewhere.cleanup();
      }
    });

    it('is no event: reading the log and its head never show it', async function () {
      const store = await impl.open();
      const head = await store.headPosition();
      await store.identity();
      assert.equal(await store.headPosition(), head);
      assert.deepEqual(await store.readAll({ after: head }), []);
    });
  });
}
