// Cursors carry no query: a list's cursor is sealed by the service for one company, route and filter, and
// a forged, unsealed, tampered or borrowed one is a quick 400 (a forged {"$regex": ...} once froze the service).
import assert from 'node:assert/strict';
import { expectStatus, startPacientesWorld, type Answer, type PacientesWorld } from './pacientesWorld.js';

/** What the read store itself encodes: base64url JSON of the sort keys and the last item's sort values. */
const storeCursor = (v: unknown[]): string => Buffer.from(JSON.stringify({ k: ['sortName', 'id'], v })).toString('base64url');

describe('page cursors over HTTP', function () {
  this.timeout(60_000);
  let world: PacientesWorld;
  let sealed: string;

  before(async () => {
    world = await startPacientesWorld();
    // Names on which (a+)+$ backtracks exponentially: a cursor that reached mingo as a $regex would take seconds per row.
    for (let i = 0; i < 4; i++) await world.register(world.a, { familyNames: `${'a'.repeat(26)}${i}`, givenNames: 'Bruno' });
    const first = expectStatus(await world.call(world.a, 'GET', '/pacientes?limit=2'), 200);
    sealed = first.body.nextCursor as string;
    assert.ok(sealed);
  });
  after(async () => world?.close());

  const list = (token: string, query: string): Promise<Answer> => world.call(token, 'GET', `/pacientes?${query}`);
  const refused = async (token: string, query: string): Promise<Answer> => {
    // A 400 is proof enough: a cursor that reached the store would answer 200 (after seconds of backtracking).
    const answer = expectStatus(await list(token, query), 400, 'invalid-cursor');
    assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    assert.deepEqual(answer.body.errors, [{ pointer: '/query/cursor', message: 'is not a cursor of this query' }]);
    return answer;
  };

  it('pages on with the cursor it issued, which does not show the sort values it holds', async () => {
    assert.throws(() => JSON.parse(Buffer.from(sealed, 'base64url').toString('utf8')));
    const second = expectStatus(await list(world.a, `limit=2&cursor=${encodeURIComponent(sealed)}`), 200);
    assert.equal((second.body.items as unknown[]).length, 2);
  });

  it('refuses a forged cursor holding an operator, at once', async () => {
    const forged = storeCursor([{ $regex: '(a+)+$' }, '']);
    const answer = await refused(world.a, `cursor=${forged}`);
    assert.equal(answer.body.status, 400);
    await refused(world.a, `cursor=${storeCursor(['', { $regex: '(a+)+$' }])}`);
  });

  it('refuses a well-formed cursor the service did not seal', async () => {
    await refused(world.a, `cursor=${storeCursor(['aaaa', 'some-id'])}`);
  });

  it('refuses a tampered cursor', async () => {
    for (const at of [4, Math.floor(sealed.length / 2), sealed.length - 1]) {
      const tampered = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
      await refused(world.a, `limit=2&cursor=${encodeURIComponent(tampered)}`);
    }
  });

  it("refuses another company's cursor, and a cursor of another sort or filter", async () => {
    const cursor = encodeURIComponent(sealed);
    await refused(world.b, `limit=2&cursor=${cursor}`);
    await refused(world.a, `limit=2&sort=createdAt&cursor=${cursor}`);
    await refused(world.a, `limit=2&order=desc&cursor=${cursor}`);
    await refused(world.a, `limit=2&status=active&cursor=${cursor}`);
  });
});
