// A module's list page is prepared once per change (like the patients' list): a new record, an amendment and a change
// of the module's definition (its list fields) each give a fresh page, never a kept one.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';

const definition = (listFields: string[]): Json => ({
  name: 'Vigilancia del acceso',
  patientLinked: false,
  fields: [
    { name: 'flow', label: 'Flujo', type: 'integer', required: true, minimum: 0, maximum: 3000 },
    { name: 'note', label: 'Nota', type: 'text', maxLength: 200 },
  ],
  listFields,
  filterFields: ['flow'],
  sortFields: ['flow'],
});

describe('Generador: prepared list pages follow every change', () => {
  let w: StaffWorld;
  before(async () => {
    w = await startStaffWorld();
  });
  after(async () => w?.close());

  it('a new record, an amendment and a definition change each show in the next page', async () => {
    const code = unique('acceso-');
    const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
      w.call(w.a, method, path, { json, headers });
    expectStatus(await call('POST', '/generador/modulos', { code, ...definition(['flow']) }), 201);
    const published = expectStatus(await call('POST', `/generador/modulos/${code}/publicacion`, {}), 200);
    const base = `/generador/m/${code}`;
    const first = expectStatus(await call('POST', base, { values: { flow: 900, note: 'ok' } }), 201);
    const page = async () =>
      (expectStatus(await call('GET', `${base}?sort=flow&order=asc`), 200).body.items as Json[]).map((r) => r.values);
    assert.deepEqual(await page(), [{ flow: 900 }]);
    assert.deepEqual(await page(), [{ flow: 900 }]); // the kept page

    expectStatus(await call('POST', base, { values: { flow: 1200 } }), 201);
    assert.deepEqual(await page(), [{ flow: 900 }, { flow: 1200 }]);

    const etag = first.headers.get('etag')!;
    expectStatus(
      await call('PATCH', `${base}/${String(first.body.id)}`, { values: { flow: 950 }, reason: 'reread' }, { 'if-match': etag }),
      200,
    );
    assert.deepEqual(await page(), [{ flow: 950 }, { flow: 1200 }]);

    const body = { ...definition(['flow', 'note']), reason: 'the note in the list' };
    expectStatus(await call('PUT', `/generador/modulos/${code}/definicion`, body, { 'if-match': published.headers.get('etag')! }), 200);
    assert.deepEqual(await page(), [{ flow: 950, note: 'ok' }, { flow: 1200 }]);
  });
});
