// What the SQLite read store hands to SQL, and when it still asks mingo: a translation marked exact must match
// MongoDB's answer on its own, anything else only narrows.
import assert from 'node:assert/strict';
import { rowValueSeek, translateFilter, type FieldColumns } from './sqlFilter.js';
import { ArrayPaths } from './arrayPaths.js';

function columns(arrays: string[] = [], unique: string[] = []): FieldColumns {
  const paths = new ArrayPaths(arrays);
  const expression = (path: string) =>
    path === 'id' ? 'id' : path === 'tenantId' ? 'tenant_id' : paths.covers(path) ? null : `json_extract(doc, '$.${path}')`;
  return { expression, uniqueExpression: (path) => (unique.includes(path) ? `ifnull(${expression(path)}, x'00')` : null) };
}

describe('SQLite read store: filters into SQL', () => {
  it('answers string and null equality, $in of strings and $exists exactly in SQL', () => {
    const condition = translateFilter(
      { status: 'active', isolation: null, kind: { $in: ['a', 'b'] }, note: { $exists: false } },
      columns(),
    );
    assert.equal(condition.exact, true);
    assert.equal(
      condition.sql,
      "(json_extract(doc, '$.status') = ?) AND (json_extract(doc, '$.isolation') IS NULL) AND " +
        "((json_extract(doc, '$.kind') IN (?, ?))) AND ((json_type(doc, '$.note') IS NULL))",
    );
    assert.deepEqual(condition.params, ['active', 'a', 'b']);
  });

  it('only narrows numbers, booleans and ranges (JSON true reads back as 1), leaving mingo to decide', () => {
    for (const filter of [{ age: 3 }, { active: true }, { date: { $gte: '2026-01-01' } }, { age: { $lt: 9 } }]) {
      const condition = translateFilter(filter, columns());
      assert.notEqual(condition.sql, '1', JSON.stringify(filter));
      assert.equal(condition.exact, false, JSON.stringify(filter));
    }
  });

  it('leaves a path that has held an array (or runs through one) to mingo', () => {
    const condition = translateFilter({ tags: 'hd', 'readings.time': '10:00', status: 'active' }, columns(['tags', 'readings']));
    assert.equal(condition.sql, "(json_extract(doc, '$.status') = ?)");
    assert.equal(condition.exact, false);
  });

  it('cannot narrow an $or with a branch it cannot translate, and narrows one it can', () => {
    assert.equal(translateFilter({ $or: [{ status: 'a' }, { name: { $regex: '^x' } }] }, columns()).sql, '1');
    const both = translateFilter({ $or: [{ status: 'a' }, { id: 'p1' }] }, columns());
    assert.equal(both.sql, "(((json_extract(doc, '$.status') = ?)) OR ((id = ?)))");
    assert.equal(both.exact, true);
  });

  it('compares a unique field through its unique index expression (where missing and null collide)', () => {
    assert.equal(translateFilter({ email: 'a@x' }, columns([], ['email'])).sql, "(ifnull(json_extract(doc, '$.email'), x'00') = ?)");
  });

  it('seeks past a cursor with one row value when every key runs one way and every value is a string or number', () => {
    const seek = rowValueSeek(["json_extract(doc, '$.sortName')", 'id'], [1, 1], ['quispe', 'p1']);
    assert.deepEqual(seek, {
      sql: "json_extract(doc, '$.sortName') >= ? AND (json_extract(doc, '$.sortName'), id) > (?, ?)",
      params: ['quispe', 'quispe', 'p1'],
      exact: true,
    });
    assert.equal(rowValueSeek(['a', 'id'], [-1, 1], ['x', 'p1']), null, 'mixed directions');
    assert.equal(rowValueSeek(['a', 'id'], [1, 1], [null, 'p1']), null, 'a null sorts first: the $or form handles it');
    assert.equal(rowValueSeek([null, 'id'], [1, 1], ['x', 'p1']), null, 'a key SQL cannot order');
  });
});
