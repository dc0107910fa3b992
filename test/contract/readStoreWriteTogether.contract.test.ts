// writeTogether (several collections' bulk writes and replaces, in groups whose failures stay their own), run against
// every reachable read store; on SQLite the whole call is one transaction (commits counted in the write-ahead log).
import assert from 'node:assert/strict';
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { DuplicateKeyError, type Collection, type ReadDoc, type ReadStore } from '../../src/stores/readStore.js';
import { writeTogether } from '../../src/stores/writeTogether.js';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';
import { readStoreImplementations, type OpenedReadStore } from '../support/storeImplementations.js';
import { walCommits } from '../support/walCommits.js';

interface Person extends ReadDoc {
  email?: string;
  _position?: number;
}
const A = 'clinicA';
const person = (id: string, fields: Partial<Person> = {}): Person => ({ tenantId: A, id, ...fields });

for (const implementation of readStoreImplementations()) {
  describe(`ReadStore contract, writeTogether: ${implementation.name}`, function () {
    let opened: OpenedReadStore;
    let store: ReadStore;
    let people: Collection<Person>;
    let notes: Collection<Person>;
    let marks: Collection<Person>;

    beforeEach(async function () {
      opened = await implementation.open();
      store = opened.store;
      people = await store.collection<Person>('people_v1', [{ keys: { email: 1 }, unique: true, name: 'email_unique' }]);
      notes = await store.collection<Person>('notes_v1');
      marks = await store.collection<Person>('marks_v1');
    });
    afterEach(async function () {
      await opened.dispose();
    });

    it('writes every group, each collection in order, and keeps a failure to its own group', async function () {
      await people.replace(person('taken', { email: 'taken@x' }));
      const results = await writeTogether(store, [
        [
          { collection: people, ops: [{ kind: 'replace', doc: person('a1', { email: 'a1@x' }) }] },
          { collection: notes, ops: [{ kind: 'replace', doc: person('n1') }] },
          { collection: marks, replace: person('g1', { email: 'mark of group 1' }) },
        ],
        [
          {
            collection: people,
            ops: [
              { kind: 'replace', doc: person('b1', { email: 'taken@x' }) }, // breaks the unique index
              { kind: 'replace', doc: person('b2', { email: 'b2@x' }) },
            ],
          },
          { collection: notes, ops: [{ kind: 'replace', doc: person('n2') }] },
          { collection: marks, replace: person('g2') },
        ],
        [
          { collection: people, ops: [{ kind: 'replace', doc: person('c1', { email: 'c1@x', _position: 5 }), ifNewer: true }] },
          { collection: notes, ops: [{ kind: 'delete', tenantId: A, id: 'nothing-there' }] },
          { collection: marks, replace: person('g3') },
        ],
      ]);
      assert.equal(results.length, 3);
      assert.equal(results[0], null);
      assert.ok(results[1] instanceof DuplicateKeyError, `group 2 failed on its own: ${String(results[1])}`);
      assert.equal(results[2], null);
      assert.equal((await people.get(A, 'a1'))?.email, 'a1@x');
      assert.equal((await notes.get(A, 'n1'))?.id, 'n1');
      assert.equal((await marks.get(A, 'g1'))?.email, 'mark of group 1');
      // As a bulkWrite alone: the failed collection's other operations land; the group's later writes do not.
      assert.equal((await people.get(A, 'b1'))?.id, undefined);
      assert.equal((await people.get(A, 'b2'))?.email, 'b2@x');
      assert.equal(await notes.get(A, 'n2'), null, 'a group stops at its first failed collection');
      assert.equal(await marks.get(A, 'g2'), null, 'its last write (a checkpoint) is not made');
      assert.equal((await people.get(A, 'c1'))?._position, 5);
      assert.equal((await marks.get(A, 'g3'))?.id, 'g3');
    });

    it('answers an empty call and groups without writes', async function () {
      assert.deepEqual(await writeTogether(store, []), []);
      assert.deepEqual(await writeTogether(store, [[], [{ collection: notes, ops: [] }]]), [null, null]);
      assert.equal(await notes.count(A), 0);
    });
  });
}

describe('writeTogether on the SQLite read store: one transaction', function () {
  let dir: string;
  let store: ReadStore;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-together-'))));
  afterEach(async () => {
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits the writes of every group and collection once', async function () {
    const file = path.join(dir, 'readmodels.sqlite');
    store = await openSqliteReadStore({ file });
    const collections = await Promise.all(['one_v1', 'two_v1', 'three_v1'].map((name) => store.collection<Person>(name)));
    await collections[0]!.replace(person('warm'));
    const before = walCommits(file);
    const results = await writeTogether(
      store,
      collections.map((collection, i) => [
        { collection, ops: [1, 2, 3].map((n) => ({ kind: 'replace' as const, doc: person(`d${i}-${n}`) })) },
        { collection: collections[(i + 1) % 3]!, replace: person(`checkpoint-${i}`) },
      ]),
    );
    assert.deepEqual(results, [null, null, null]);
    assert.equal(walCommits(file) - before, 1, 'three groups over three collections: one COMMIT');
    assert.equal(await collections[2]!.count(A), 4);
  });
});
