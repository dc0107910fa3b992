// ReadStore contract, run against every reachable read store (embedded always, MongoDB with MONGO_URL).
import assert from 'node:assert/strict';
import { DuplicateKeyError, type Collection, type ReadDoc, type ReadStore, type SortSpec } from '../../src/stores/readStore.js';
import { InvalidCursorError } from '../../src/stores/readCursor.js';
import { UnsafeFilterError } from '../../src/stores/filterGuard.js';
import { readStoreImplementations, type OpenedReadStore } from '../support/storeImplementations.js';
import { CHANGED_AT_INDEX } from '../../src/projections/runner/projection.js';
import { changedSince } from '../../src/queries/changedSince.js';

interface Person extends ReadDoc {
  name: string;
  email?: string;
  age?: number;
  group?: string | null;
  tags?: string[];
  address?: { city: string; zip?: string };
  visits?: number;
}

const A = 'clinicA';
const B = 'clinicB';

const person = (id: string, fields: Partial<Person> = {}, tenantId = A): Person => ({ tenantId, id, name: `name ${id}`, ...fields });

/** Every document of a tenant, paged with `limit` through cursors. */
async function walk(
  people: Collection<Person>,
  tenantId: string,
  options: { sort?: SortSpec; limit: number; filter?: Record<string, unknown> },
) {
  const seen: Person[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await people.find(tenantId, options.filter ?? {}, { sort: options.sort, limit: options.limit, after });
    assert.ok(page.items.length <= options.limit);
    seen.push(...page.items);
    if (!page.nextCursor) return seen;
    after = page.nextCursor;
  }
  throw new Error('cursor paging does not end');
}

/** Expected order computed independently: the sort keys (missing and null first ascending), then id. */
function expectedOrder(docs: Person[], key: 'group' | 'age', direction: 1 | -1): string[] {
  const rank = (d: Person) => d[key] ?? null;
  return [...docs]
    .sort((x, y) => {
      const a = rank(x);
      const b = rank(y);
      if (a !== b) {
        if (a === null) return -direction;
        if (b === null) return direction;
        return (a < b ? -1 : 1) * direction;
      }
      return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    })
    .map((d) => d.id);
}

for (const implementation of readStoreImplementations()) {
  describe(`ReadStore contract: ${implementation.name}`, function () {
    let opened: OpenedReadStore;
    let store: ReadStore;
    let people: Collection<Person>;

    beforeEach(async function () {
      opened = await implementation.open();
      store = opened.store;
      people = await store.collection<Person>('people_v1', [
        { keys: { email: 1 }, unique: true, name: 'email_unique' },
        { keys: { tenantId: 1, group: 1 } },
      ]);
    });
    afterEach(async function () {
      await opened.dispose();
    });

    it('replaces and gets documents by id, within their tenant only', async function () {
      await people.replace(person('p1', { email: 'a@x', age: 40 }));
      assert.deepEqual(await people.get(A, 'p1'), person('p1', { email: 'a@x', age: 40 }));
      assert.equal(await people.get(A, 'missing'), null);
      assert.equal(await people.get(B, 'p1'), null);
      await people.replace(person('p1', { email: 'a@x', visits: 3 }));
      assert.deepEqual(await people.get(A, 'p1'), person('p1', { email: 'a@x', visits: 3 }), 'replace drops the fields it does not carry');
    });

    it('filters with MongoDB query documents', async function () {
      await people.bulkWrite([
        { kind: 'replace', doc: person('p1', { email: '1@x', age: 30, tags: ['hd'], address: { city: 'Lima' } }) },
        { kind: 'replace', doc: person('p2', { email: '2@x', age: 50, tags: ['hdf', 'hd'], address: { city: 'Cusco' } }) },
        { kind: 'replace', doc: person('p3', { email: '3@x', age: 70, address: { city: 'Lima', zip: '15001' } }) },
      ]);
      const ids = async (filter: Record<string, unknown>) => (await people.find(A, filter)).items.map((d) => d.id);
      assert.deepEqual(await ids({ age: { $gte: 50 } }), ['p2', 'p3']);
      assert.deepEqual(await ids({ 'address.city': 'Lima' }), ['p1', 'p3']);
      assert.deepEqual(await ids({ tags: 'hd' }), ['p1', 'p2']);
      assert.deepEqual(await ids({ tags: { $exists: false } }), ['p3']);
      assert.deepEqual(await ids({ $or: [{ age: { $lt: 35 } }, { 'address.zip': '15001' }] }), ['p1', 'p3']);
      assert.deepEqual(await ids({ id: { $in: ['p3', 'p1', 'nope'] } }), ['p1', 'p3']);
      assert.deepEqual(await ids({ name: { $regex: /^name p[12]$/ } }), ['p1', 'p2']);
      assert.deepEqual(await ids({ id: 'p2', age: 50 }), ['p2']);
      assert.deepEqual(await ids({ id: 'p2', age: 51 }), []);
      const one = await people.findOne(A, { 'address.city': 'Cusco' });
      assert.equal(one?.id, 'p2');
      assert.equal(await people.findOne(A, { age: 99 }), null);
    });

    it('sorts by the requested keys with id breaking ties, and applies limit, skip and projection', async function () {
      await people.bulkWrite(
        ['d', 'b', 'a', 'c', 'e'].map((id, i) => ({
          kind: 'replace' as const,
          doc: person(id, { email: `${id}@x`, age: i % 2 === 0 ? 40 : 30 }),
        })),
      );
      const ids = async (sort: SortSpec, limit?: number, skip?: number) =>
        (await people.find(A, {}, { sort, limit, skip })).items.map((d) => d.id);
      assert.deepEqual(await ids({}), ['a', 'b', 'c', 'd', 'e']);
      assert.deepEqual(await ids({ age: 1 }), ['b', 'c', 'a', 'd', 'e']);
      assert.deepEqual(await ids({ age: -1 }), ['a', 'd', 'e', 'b', 'c']);
      assert.deepEqual(await ids({ id: -1 }), ['e', 'd', 'c', 'b', 'a']);
      assert.deepEqual(await ids({ age: -1 }, 2), ['a', 'd']);
      assert.deepEqual(await ids({ age: -1 }, 2, 2), ['e', 'b']);
      const projected = await people.find(A, { id: 'a' }, { projection: { name: 1, age: 1 } });
      assert.deepEqual(projected.items, [{ name: 'name a', age: 40 }]);
    });

    it('projects long documents to exactly the included fields, booleans, nulls and nesting kept, across cursor pages', async function () {
      const docs = Array.from({ length: 7 }, (_, i) =>
        person(`p${i}`, {
          email: `${i}@x`,
          group: 'alpha',
          age: i % 3,
          tags: i % 2 ? ['hd', 'hdf'] : [],
          address: { city: 'Lima', ...(i % 2 ? { zip: '15001' } : {}) },
          ...{ active: i % 2 === 0, archived: false, note: null, history: 'x'.repeat(3000) },
        }),
      );
      await people.bulkWrite(docs.map((doc) => ({ kind: 'replace' as const, doc })));
      const projection = { name: 1, active: 1, archived: 1, note: 1, tags: 1, address: 1, missing: 1 } as const;
      const seen: unknown[] = [];
      let after: string | undefined;
      do {
        const page = await people.find(A, { group: 'alpha' }, { sort: { age: 1 }, limit: 3, projection, ...(after ? { after } : {}) });
        seen.push(...page.items);
        after = page.nextCursor ?? undefined;
      } while (after);
      const expected = [...docs]
        .sort((a, b) => a.age! - b.age! || a.id.localeCompare(b.id))
        .map((d) => {
          const all = d as unknown as Record<string, unknown>;
          return { name: all.name, active: all.active, archived: false, note: null, tags: all.tags, address: all.address };
        });
      assert.deepEqual(seen, expected);
    });

    it('pages with cursors through every document exactly once, in order, across ties and missing values', async function () {
      const docs: Person[] = [];
      for (let i = 0; i < 37; i++) {
        const id = `p${String((i * 17) % 37).padStart(2, '0')}`;
        const group = i % 5 === 0 ? undefined : i % 7 === 0 ? null : ['alpha', 'beta', 'gamma'][i % 3]!;
        docs.push(person(id, { email: `${id}@x`, ...(group !== undefined ? { group } : {}), age: i % 4 }));
      }
      await people.bulkWrite(docs.map((doc) => ({ kind: 'replace' as const, doc })));
      await people.replace(person('other', { email: 'o@x', group: 'alpha' }, B));
      for (const limit of [1, 4, 10, 50]) {
        for (const direction of [1, -1] as const) {
          const walked = await walk(people, A, { sort: { group: direction }, limit });
          assert.deepEqual(
            walked.map((d) => d.id),
            expectedOrder(docs, 'group', direction),
            `group ${direction}, limit ${limit}`,
          );
        }
      }
      const byAgeThenId = await walk(people, A, { sort: { age: -1 }, limit: 3, filter: { age: { $gte: 1 } } });
      assert.deepEqual(
        byAgeThenId.map((d) => d.id),
        expectedOrder(
          docs.filter((d) => (d.age ?? 0) >= 1),
          'age',
          -1,
        ),
      );
      const byId = await walk(people, A, { limit: 6 });
      assert.deepEqual(
        byId.map((d) => d.id),
        docs.map((d) => d.id).sort(),
      );
      const last = await people.find(A, {}, { limit: 37 });
      assert.equal(last.nextCursor, null, 'a page that holds the rest has no next cursor');
    });

    it('filters on the runner stamp (updatedSince) through its index, with another filter, a sort and cursor pages', async function () {
      const stamped = await store.collection<Person>('stamped_v1', [{ keys: { tenantId: 1, group: 1 } }, CHANGED_AT_INDEX]);
      const at = (minute: number): string => new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString();
      const docs = Array.from({ length: 30 }, (_, i) =>
        person(`p${i}`, { name: `n${29 - i}`, group: i % 2 ? 'x' : 'y', _changedAt: at(i) }),
      );
      await stamped.bulkWrite(
        [...docs, person('old', { group: 'x' }), person('b', { group: 'x', _changedAt: at(59) }, B)].map((doc) => ({
          kind: 'replace',
          doc,
        })),
      );
      const since = changedSince(at(10));
      const seen = await walk(stamped, A, { filter: { ...since, group: 'x' }, sort: { name: 1 }, limit: 4 });
      const expected = docs.filter((d, i) => i >= 10 && d.group === 'x').sort((a, b) => (a.name < b.name ? -1 : 1));
      assert.deepEqual(
        seen.map((d) => d.id),
        expected.map((d) => d.id),
      );
      // At or after: the instant itself counts; a finer fraction past it does not.
      assert.equal((await stamped.find(A, changedSince(at(29)))).items.length, 1);
      assert.equal((await stamped.find(A, changedSince(at(29).replace('Z', '1Z')))).items.length, 0);
      assert.equal(await stamped.count(A, changedSince('2026-11-26T11:10:00+01:00')), 20);
    });

    it('rejects a cursor made for another sort, or garbage', async function () {
      await people.bulkWrite(['a', 'b', 'c'].map((id) => ({ kind: 'replace' as const, doc: person(id, { email: `${id}@x` }) })));
      const page = await people.find(A, {}, { sort: { name: 1 }, limit: 1 });
      assert.ok(page.nextCursor);
      await assert.rejects(people.find(A, {}, { sort: { age: 1 }, limit: 1, after: page.nextCursor }), InvalidCursorError);
      await assert.rejects(people.find(A, {}, { limit: 1, after: 'not-a-cursor' }), InvalidCursorError);
    });

    it('refuses a cursor whose values are not scalars, before any document is read', async function () {
      await people.bulkWrite(['a', 'b', 'c'].map((id) => ({ kind: 'replace' as const, doc: person(id, { email: `${id}@x` }) })));
      const forged = (v: unknown[]) => Buffer.from(JSON.stringify({ k: ['name', 'id'], v })).toString('base64url');
      for (const value of [{ $regex: '(a+)+$' }, { $ne: null }, { $where: 'true' }, ['name a']]) {
        await assert.rejects(people.find(A, {}, { sort: { name: 1 }, limit: 1, after: forged([value, 'a']) }), InvalidCursorError);
        await assert.rejects(people.find(A, {}, { sort: { name: 1 }, limit: 1, after: forged(['name a', value]) }), InvalidCursorError);
      }
    });

    it('refuses, before reading, a filter no code of the service builds: code, text patterns, objects as values', async function () {
      await people.replace(person('a', { email: 'a@x', name: 'a'.repeat(30) + '!' }));
      const unsafe: Record<string, unknown>[] = [
        { name: { $regex: '(a+)+$' } },
        { $or: [{ id: 'a' }, { name: { $regex: '(a+)+$' } }] },
        { $where: 'function () { return true; }' },
        { $expr: { $eq: ['$name', '$email'] } },
        { name: { $gt: { $regex: '(a+)+$' } } },
        { address: { city: { $ne: null } } },
      ];
      for (const filter of unsafe) {
        await assert.rejects(people.find(A, filter), UnsafeFilterError, JSON.stringify(filter));
        await assert.rejects(people.find(A, filter, { sort: { name: 1 }, limit: 1 }), UnsafeFilterError);
        await assert.rejects(people.findOne(A, filter), UnsafeFilterError);
        await assert.rejects(people.count(A, filter), UnsafeFilterError);
        await assert.rejects(people.updateOne(A, filter, { $set: { visits: 1 } }), UnsafeFilterError);
        await assert.rejects(
          people.bulkWrite([{ kind: 'update', tenantId: A, filter, update: { $set: { visits: 1 } } }]),
          UnsafeFilterError,
        );
      }
      assert.equal((await people.get(A, 'a'))?.visits, undefined);
    });

    it('never shows one tenant the documents of another, even when the filter names it', async function () {
      await people.replace(person('shared-id', { email: 'b@x', age: 33 }, B));
      await people.replace(person('mine', { email: 'a@x', age: 33 }));
      assert.deepEqual((await people.find(A, { tenantId: B })).items, []);
      assert.deepEqual(
        (await people.find(A, { $or: [{ tenantId: B }, { age: 33 }] })).items.map((d) => d.id),
        ['mine'],
      );
      assert.equal(await people.count(A, { tenantId: B }), 0);
      assert.equal(await people.findOne(A, { id: 'shared-id' }), null);
      assert.equal(await people.get(A, 'shared-id'), null);
      assert.deepEqual(await people.updateOne(A, { id: 'shared-id' }, { $set: { age: 1 } }), { matched: 0, upserted: false });
      assert.equal(await people.deleteOne(A, 'shared-id'), false);
      assert.deepEqual(await people.get(B, 'shared-id'), person('shared-id', { email: 'b@x', age: 33 }, B));
      assert.equal(await people.count(B), 1);
    });

    it('answers equality filters on indexed fields as a scan would, through updates, deletes and array values', async function () {
      const loose = (group: unknown) => ({ group }) as unknown as Partial<Person>;
      await people.bulkWrite([
        { kind: 'replace', doc: person('p1', { email: '1@x', group: 'alpha', age: 30 }) },
        { kind: 'replace', doc: person('p2', { email: '2@x', group: 'beta', age: 40 }) },
        { kind: 'replace', doc: person('p3', { email: '3@x', group: null }) },
        { kind: 'replace', doc: person('p4', { email: '4@x' }) },
        { kind: 'replace', doc: person('p5', { email: '5@x', ...loose(['gamma', 'alpha']) }) },
        { kind: 'replace', doc: person('p6', { email: '6@x', ...loose(1) }) },
        { kind: 'replace', doc: person('p7', { email: '7@x', group: 'alpha', age: 50 }) },
        { kind: 'replace', doc: person('b1', { email: '1@x', group: 'alpha' }, B) },
      ]);
      const ids = async (filter: Record<string, unknown>, tenantId = A) => (await people.find(tenantId, filter)).items.map((d) => d.id);
      assert.deepEqual(await ids({ group: 'alpha' }), ['p1', 'p5', 'p7'], 'an array holding the value matches too');
      assert.deepEqual(await ids({ group: 'alpha' }, B), ['b1']);
      assert.deepEqual(await ids({ group: 'alpha', age: { $gte: 40 } }), ['p7']);
      assert.deepEqual(await ids({ group: 'gamma' }), ['p5']);
      assert.deepEqual(await ids({ group: 1 }), ['p6']);
      assert.deepEqual(await ids({ group: '1' }), [], 'no match across types');
      assert.deepEqual(await ids({ group: null }), ['p3', 'p4'], 'null matches null and missing');
      assert.deepEqual(await ids({ group: 'nobody' }), []);
      assert.deepEqual(await ids({ email: '2@x' }), ['p2']);
      assert.equal(await people.count(A, { group: 'alpha' }), 3);
      assert.equal((await people.findOne(A, { group: 'beta' }))?.id, 'p2');
      assert.ok(['p1', 'p5', 'p7'].includes((await people.findOne(A, { group: 'alpha' }))!.id));
      assert.equal(await people.findOne(A, { group: 'alpha', age: 99 }), null);

      await people.replace(person('p1', { email: '1@x', group: 'beta', age: 30 }));
      await people.updateOne(A, { group: 'alpha', age: 50 }, { $set: { group: 'delta' } });
      await people.updateOne(A, { id: 'p5' }, { $set: { group: 'alpha' } });
      await people.deleteOne(A, 'p2');
      await people.updateOne(A, { group: 'epsilon' }, { $set: { id: 'p8', email: '8@x' } }, { upsert: true });
      assert.deepEqual(await ids({ group: 'alpha' }), ['p5']);
      assert.deepEqual(await ids({ group: 'beta' }), ['p1']);
      assert.deepEqual(await ids({ group: 'delta' }), ['p7']);
      assert.deepEqual(await ids({ group: 'gamma' }), []);
      assert.deepEqual(await ids({ group: 'epsilon' }), ['p8']);
      assert.deepEqual(await ids({ group: 'alpha' }, B), ['b1']);

      // An index declared over documents already stored answers at once.
      const again = await store.collection<Person>('people_v1', [{ keys: { tenantId: 1, age: 1 } }]);
      assert.deepEqual(
        (await again.find(A, { age: 30 })).items.map((d) => d.id),
        ['p1'],
      );
      await again.drop();
      assert.deepEqual(await ids({ group: 'beta' }), []);
    });

    it('counts documents of a tenant, with and without a filter', async function () {
      await people.bulkWrite(
        [1, 2, 3, 4].map((n) => ({ kind: 'replace' as const, doc: person(`p${n}`, { email: `${n}@x`, age: n * 10 }) })),
      );
      await people.replace(person('x', { email: 'x@x', age: 10 }, B));
      assert.equal(await people.count(A), 4);
      assert.equal(await people.count(A, { age: { $gt: 15 } }), 3);
      assert.equal(await people.count(B), 1);
      assert.equal(await people.count('nobody'), 0);
    });

    it('applies update operators to the first match', async function () {
      await people.replace(person('p1', { email: '1@x', visits: 1, tags: ['hd', 'old'], address: { city: 'Lima', zip: '1' } }));
      const result = await people.updateOne(
        A,
        { id: 'p1' },
        {
          $set: { 'address.city': 'Cusco', age: 44 },
          $unset: { 'address.zip': '' },
          $inc: { visits: 2 },
          $push: { tags: 'new' },
        },
      );
      assert.deepEqual(result, { matched: 1, upserted: false });
      await people.updateOne(A, { email: '1@x' }, { $pull: { tags: 'old' } });
      await people.updateOne(A, { id: 'p1' }, { $addToSet: { tags: 'hd' } });
      await people.updateOne(A, { id: 'p1' }, { $addToSet: { tags: 'hdf' } });
      assert.deepEqual(
        await people.get(A, 'p1'),
        person('p1', { email: '1@x', visits: 3, tags: ['hd', 'new', 'hdf'], address: { city: 'Cusco' }, age: 44 }),
      );
      assert.deepEqual(await people.updateOne(A, { id: 'nope' }, { $set: { age: 1 } }), { matched: 0, upserted: false });
      assert.equal(await people.get(A, 'nope'), null);
    });

    it('upserts a document built from the filter equality fields and $setOnInsert', async function () {
      const first = await people.updateOne(
        A,
        { id: 'u1' },
        { $setOnInsert: { name: 'New', email: 'u1@x' }, $inc: { visits: 1 } },
        { upsert: true },
      );
      assert.deepEqual(first, { matched: 0, upserted: true });
      assert.deepEqual(await people.get(A, 'u1'), { tenantId: A, id: 'u1', name: 'New', email: 'u1@x', visits: 1 });
      const second = await people.updateOne(A, { id: 'u1' }, { $setOnInsert: { name: 'Ignored' }, $inc: { visits: 1 } }, { upsert: true });
      assert.deepEqual(second, { matched: 1, upserted: false });
      assert.deepEqual(await people.get(A, 'u1'), { tenantId: A, id: 'u1', name: 'New', email: 'u1@x', visits: 2 });
      await people.updateOne(A, { email: 'u2@x' }, { $set: { id: 'u2', name: 'By email' } }, { upsert: true });
      assert.deepEqual(await people.get(A, 'u2'), { tenantId: A, id: 'u2', email: 'u2@x', name: 'By email' });
      assert.equal(await people.get(B, 'u1'), null);
    });

    it('deletes by id', async function () {
      await people.replace(person('p1', { email: '1@x' }));
      assert.equal(await people.deleteOne(A, 'p1'), true);
      assert.equal(await people.deleteOne(A, 'p1'), false);
      assert.equal(await people.get(A, 'p1'), null);
    });

    it('applies bulk writes of replaces, updates and deletes', async function () {
      await people.bulkWrite([
        { kind: 'replace', doc: person('p1', { email: '1@x', visits: 1 }) },
        { kind: 'replace', doc: person('p2', { email: '2@x' }) },
        { kind: 'replace', doc: person('p3', { email: '3@x' }, B) },
      ]);
      await people.bulkWrite([
        { kind: 'update', tenantId: A, filter: { id: 'p1' }, update: { $inc: { visits: 5 } } },
        { kind: 'update', tenantId: A, filter: { id: 'p9' }, update: { $set: { name: 'nine', email: '9@x' } }, upsert: true },
        { kind: 'delete', tenantId: A, id: 'p2' },
        { kind: 'delete', tenantId: A, id: 'p3' }, // another tenant's id: nothing happens
      ]);
      assert.deepEqual((await people.find(A)).items, [
        person('p1', { email: '1@x', visits: 6 }),
        { tenantId: A, id: 'p9', name: 'nine', email: '9@x' },
      ]);
      assert.deepEqual(await people.get(B, 'p3'), person('p3', { email: '3@x' }, B));
      await people.bulkWrite([]);
    });

    it('enforces unique indexes per tenant with DuplicateKeyError', async function () {
      await people.replace(person('p1', { email: 'same@x' }));
      await assert.rejects(people.replace(person('p2', { email: 'same@x' })), DuplicateKeyError);
      assert.equal(await people.get(A, 'p2'), null);
      await people.replace(person('p1', { email: 'same@x', age: 2 })); // the owner may rewrite itself
      await people.replace(person('p2', { email: 'same@x' }, B)); // the index leads with tenantId
      await people.replace(person('p1', { email: 'changed@x' }));
      await people.replace(person('p2', { email: 'same@x' })); // the old value is free again
      await assert.rejects(people.updateOne(A, { id: 'p2' }, { $set: { email: 'changed@x' } }), DuplicateKeyError);
      await assert.rejects(
        people.bulkWrite([
          { kind: 'replace', doc: person('p3', { email: 'changed@x' }) },
          { kind: 'replace', doc: person('p4', { email: 'fresh@x' }) },
        ]),
        DuplicateKeyError,
      );
      assert.equal((await people.get(A, 'p4'))?.email, 'fresh@x', 'bulk writes are unordered: the other ops still apply');
      await people.deleteOne(A, 'p1');
      await people.replace(person('p3', { email: 'changed@x' }));
    });

    it('hands out copies: changing a result or an input never changes the store', async function () {
      const doc = person('p1', { email: '1@x', tags: ['hd'], address: { city: 'Lima' } });
      await people.replace(doc);
      doc.tags!.push('mutated-input');
      doc.address!.city = 'mutated-input';
      const got = (await people.get(A, 'p1'))!;
      got.tags!.push('mutated');
      got.address!.city = 'mutated';
      const found = (await people.find(A)).items[0]!;
      found.tags!.push('mutated');
      const one = (await people.findOne(A, { id: 'p1' }))!;
      one.address!.city = 'mutated';
      assert.deepEqual(await people.get(A, 'p1'), person('p1', { email: '1@x', tags: ['hd'], address: { city: 'Lima' } }));
    });

    it('keeps documents, unique indexes and array matching when opened again', async function () {
      await people.bulkWrite([
        { kind: 'replace', doc: person('p1', { email: '1@x', tags: ['hd', 'hdf'], group: 'alpha', age: 30 }) },
        { kind: 'replace', doc: person('p2', { email: '2@x', group: 'beta', age: 40 }) },
      ]);
      const again = await (
        await opened.reopen()
      ).collection<Person>('people_v1', [{ keys: { email: 1 }, unique: true, name: 'email_unique' }]);
      const ids = async (filter: Record<string, unknown>) => (await again.find(A, filter)).items.map((d) => d.id);
      assert.deepEqual(await again.get(A, 'p1'), person('p1', { email: '1@x', tags: ['hd', 'hdf'], group: 'alpha', age: 30 }));
      assert.deepEqual(await ids({ tags: 'hdf' }), ['p1']);
      assert.deepEqual(await ids({ group: { $in: ['beta', null] } }), ['p2']);
      assert.deepEqual(await ids({ group: { $ne: 'alpha' }, age: { $lte: 40 } }), ['p2']);
      assert.deepEqual(await ids({ tags: { $exists: true } }), ['p1']);
      assert.equal(await again.count(A, { age: { $gt: 35 } }), 1);
      await assert.rejects(again.replace(person('p3', { email: '2@x' })), DuplicateKeyError);
    });

    it('reads a collection another handle dropped as empty', async function () {
      await people.replace(person('p1', { email: '1@x', group: 'alpha' }));
      await (await opened.reopen()).dropCollection('people_v1');
      assert.equal(await people.get(A, 'p1'), null);
      assert.deepEqual((await people.find(A, { group: 'alpha' })).items, []);
      assert.equal(await people.count(A), 0);
      await people.replace(person('p2', { email: '2@x' }));
      assert.equal((await people.get(A, 'p2'))?.id, 'p2', 'a write makes it again');
    });

    it('lists, drops and recreates collections', async function () {
      await people.replace(person('p1', { email: '1@x' }));
      const other = await store.collection<Person>('other_v1');
      await other.replace(person('o1'));
      const names = await store.listCollections();
      assert.ok(names.includes('people_v1') && names.includes('other_v1'), names.join(','));
      await other.drop();
      assert.equal(await other.count(A), 0);
      await store.dropCollection('people_v1');
      await store.dropCollection('never_existed_v1');
      assert.ok(!(await store.listCollections()).includes('people_v1'));
      assert.equal(await people.get(A, 'p1'), null);
    });
  });
}
