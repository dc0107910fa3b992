// The page-cursor seal: what it sealed opens only under the same key and binding, and nothing else opens.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createPageCursors, cursorBinding } from './pageCursor.js';

describe('page cursor seal', () => {
  const codec = createPageCursors(randomBytes(32));
  const route = { method: 'get' as const, path: '/pacientes' };
  const binding = cursorBinding(route, 'company-a', { params: {}, query: { sort: 'name', order: 'asc', limit: 2, cursor: 'x' } });

  it('opens what it sealed, hides what it holds, and seals alike cursors differently', () => {
    const inner = Buffer.from('{"k":["sortName","id"],"v":["quispe","p-1"]}').toString('base64url');
    const a = codec.seal(inner, binding);
    assert.notEqual(codec.seal(inner, binding), a);
    assert.equal(codec.open(a, binding), inner);
    assert.doesNotMatch(Buffer.from(a.slice(3), 'base64url').toString('latin1'), /quispe/);
  });

  it('refuses a tampered cursor, another key, and junk', () => {
    const sealed = codec.seal('inner', binding);
    for (let at = 3; at < sealed.length; at += 7) {
      const tampered = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
      assert.equal(codec.open(tampered, binding), null, `tampered at ${at}`);
    }
    assert.equal(createPageCursors(randomBytes(32)).open(sealed, binding), null);
    for (const junk of ['', 'p1.', 'p1.AAAA', 'inner', 'c1' + sealed.slice(2), sealed + 'AA'])
      assert.equal(codec.open(junk, binding), null, junk);
  });

  it("opens only the canonical spelling: another text for the same bytes (the last character's unused bits) is refused", () => {
    // 'inner!' seals to 12 + 6 + 16 = 34 bytes: 46 characters, the last carrying 2 bits and 4 unused ones.
    const sealed = codec.seal('inner!', binding);
    const last = sealed.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const aliases = [...alphabet]
      .filter((c) => c !== last)
      .map((c) => sealed.slice(0, -1) + c)
      .filter((text) => Buffer.from(text.slice(3), 'base64url').equals(Buffer.from(sealed.slice(3), 'base64url')));
    assert.ok(aliases.length > 0, 'the seal has an alias spelling to refuse');
    for (const alias of aliases) assert.equal(codec.open(alias, binding), null, alias);
    assert.equal(codec.open(sealed, binding), 'inner!');
  });

  it('binds a cursor to its company, route, path parameters and filter, not to the page size', () => {
    const sealed = codec.seal('inner', binding);
    const other = (scope: string, path: string, params: object, query: object) =>
      cursorBinding({ method: 'get', path }, scope, { params, query });
    assert.equal(codec.open(sealed, other('company-a', '/pacientes', {}, { order: 'asc', sort: 'name', limit: 50 })), 'inner');
    assert.equal(codec.open(sealed, other('company-b', '/pacientes', {}, { sort: 'name', order: 'asc' })), null);
    assert.equal(codec.open(sealed, other('company-a', '/pacientes', {}, { sort: 'createdAt', order: 'asc' })), null);
    assert.equal(codec.open(sealed, other('company-a', '/pacientes', {}, { sort: 'name', order: 'asc', status: 'active' })), null);
    assert.equal(codec.open(sealed, other('company-a', '/colaboradores', {}, { sort: 'name', order: 'asc' })), null);
    const notes = codec.seal('inner', other('company-a', '/pacientes/{id}/notas', { id: 'p-1' }, {}));
    assert.equal(codec.open(notes, other('company-a', '/pacientes/{id}/notas', { id: 'p-2' }, {})), null);
  });
});
