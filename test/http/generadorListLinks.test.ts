// A Generador module's record list links its next page (RFC 8288) with the module's own filters and sort kept.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, unique, type StaffWorld } from './staffWorld.js';

describe('Generador: Link rel="next" on a module list', () => {
  let w: StaffWorld;
  before(async () => (w = await startStaffWorld()));
  after(async () => w?.close());

  it('links the next page with the same filter and sort, and none on the last page', async () => {
    const code = unique('enlace-');
    const call = (method: string, path: string, json?: unknown) => w.call(w.a, method, path, { json });
    const definition = {
      code,
      name: 'Control de flujo',
      patientLinked: false,
      fields: [{ name: 'flow', label: 'Flujo', type: 'integer', required: true, minimum: 0, maximum: 3000 }],
      listFields: ['flow'],
      filterFields: ['flow'],
      sortFields: ['flow'],
    };
    expectStatus(await call('POST', '/generador/modulos', definition), 201);
    expectStatus(await call('POST', `/generador/modulos/${code}/publicacion`, {}), 200);
    for (const flow of [100, 200, 300]) expectStatus(await call('POST', `/generador/m/${code}`, { values: { flow } }), 201);

    const first = expectStatus(await call('GET', `/generador/m/${code}?sort=flow&order=desc&limit=2`), 200);
    assert.deepEqual(
      first.body.items.map((r: { values: { flow: number } }) => r.values.flow),
      [300, 200],
    );
    const cursor = encodeURIComponent(String(first.body.nextCursor));
    assert.equal(first.headers.get('link'), `</generador/m/${code}?sort=flow&order=desc&limit=2&cursor=${cursor}>; rel="next"`);
    const link = first.headers.get('link')!;
    const last = expectStatus(await call('GET', link.slice(1, link.indexOf('>'))), 200);
    assert.deepEqual(
      last.body.items.map((r: { values: { flow: number } }) => r.values.flow),
      [100],
    );
    assert.equal(last.headers.get('link'), null);
  });
});
