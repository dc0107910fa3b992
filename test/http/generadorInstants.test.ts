// Date-time values of a module keep one spelling (their UTC instant): a filter written with another offset finds the
// record, and a sort orders by time, not by the text a client happened to send.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';

describe('Generador: date-time values compare as instants', () => {
  let w: StaffWorld;
  before(async () => {
    w = await startStaffWorld();
  });
  after(async () => w?.close());

  it('stores the UTC instant, filters on the same instant in any offset, and sorts by time', async () => {
    const code = unique('agua-');
    const call = (method: string, path: string, json?: unknown) => w.call(w.a, method, path, { json });
    const definition = {
      code,
      name: 'Registro de agua tratada',
      patientLinked: false,
      fields: [
        { name: 'takenAt', label: 'Toma', type: 'date-time', required: true },
        { name: 'chlorine', label: 'Cloro total', type: 'number', unit: 'mg/L', minimum: 0 },
      ],
      filterFields: ['takenAt'],
      sortFields: ['takenAt'],
    };
    expectStatus(await call('POST', '/generador/modulos', definition), 201);
    expectStatus(await call('POST', `/generador/modulos/${code}/publicacion`, {}), 200);
    const base = `/generador/m/${code}`;
    const early = expectStatus(await call('POST', base, { values: { takenAt: '2026-03-01T10:00:00+05:00', chlorine: 0.1 } }), 201);
    expectStatus(await call('POST', base, { values: { takenAt: '2026-03-01T08:00:00Z', chlorine: 0.2 } }), 201);
    assert.equal((early.body.values as Json).takenAt, '2026-03-01T05:00:00.000Z');

    const found = expectStatus(await call('GET', `${base}?takenAt=${encodeURIComponent('2026-03-01T00:00:00-05:00')}`), 200).body;
    assert.deepEqual(
      (found.items as Json[]).map((r) => (r.values as Json).chlorine),
      [0.1],
    );
    const sorted = expectStatus(await call('GET', `${base}?sort=takenAt&order=asc`), 200).body;
    assert.deepEqual(
      (sorted.items as Json[]).map((r) => (r.values as Json).chlorine),
      [0.1, 0.2],
    );
  });
});
