// Any record as it was (issue 23 item 2) for the company's own records over real HTTP: a warehouse and the policy
// read asOf an instant or at a version, the answer before they existed, and another company's record absent.
import assert from 'node:assert/strict';
import { expectStatus, startDialisisWorld, unique, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE } from './dialisisSessionSteps.js';

describe('Any record as it was over HTTP: warehouses and the company policy', () => {
  let w: DialisisWorld;
  before(async () => {
    w = await startDialisisWorld();
  });
  after(async () => w?.close());

  const get = (path: string, token = w.a) => w.call(token, 'GET', path);
  const at = (instant: string): string => `asOf=${encodeURIComponent(instant)}`;
  const madeBy = (headers: Headers): string => headers.get('x-record-event') ?? '';

  it('a warehouse as it was: there at its creation, not yet before it, absent in another company', async () => {
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const store = { locationId: w.stationA.locationId, code: unique('ALM-'), name: 'Almacén de farmacia', kind: 'pharmacy' };
    const created = expectStatus(await w.call(w.a, 'POST', '/productos/almacenes', { json: store }), 201).body;
    const path = `/productos/almacenes/${created.id as string}`;
    const now = w.server.clock.now().toISOString();
    const then = expectStatus(await get(`${path}?${at(now)}`), 200);
    assert.deepEqual(then.body, created);
    assert.match(madeBy(then.headers), /^version=0, type="WarehouseCreated"/);
    assert.deepEqual(expectStatus(await get(`${path}?version=0`), 200).body, created);
    expectStatus(await get(`${path}?version=1`), 404, 'not-found');
    const early = expectStatus(await get(`${path}?${at(before)}`), 404, 'not-yet-existing');
    assert.equal(early.body.firstEventAt, created.createdAt);
    expectStatus(await get(`${path}?${at(now)}`, w.b), 404, 'not-found');
  });
});
