// The kardex of a drug names the patients it was issued to: reading it, JSON or CSV, is a read of patient data and
// leaves an access audit entry naming them; a refused read (another company's product) leaves one too (issue 20 item 6).
import assert from 'node:assert/strict';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { expectStatus, startProductosWorld, unique, type Json, type ProductosWorld } from './productosWorld.js';

describe('Access audit over HTTP: the kardex names the patients a drug was issued to', () => {
  let w: ProductosWorld;
  before(async () => {
    w = await startProductosWorld();
  });
  after(async () => w?.close());

  async function read(token: string, path: string) {
    const correlationId = unique('kardex-read-');
    const answer = await w.call(token, 'GET', path, { headers: { 'x-request-id': correlationId } });
    return { answer, correlationId };
  }

  async function entriesOf(tenantId: string, correlationId: string): Promise<Json[]> {
    await w.server.flushAccessAudit();
    const events = await w.server.services.events.readStream(accessLogStream(tenantId, w.server.services.now().toISOString()));
    return events.filter((e) => e.type === RECORD_ACCESSED && e.metadata.correlationId === correlationId).map((e) => e.data as Json);
  }

  const what = (e: Json) => [e.recordType, e.recordId, e.route, e.status, e.outcome, e.patientIds];

  it('a kardex read, JSON or CSV, names the patients; a read of another company product is recorded as not found', async () => {
    const productId = (await w.product(w.a, { prescriptionDrug: true })).id as string;
    const warehouseId = await w.warehouse(w.a);
    const patientId = await w.patient(w.a);
    const expiry = new Date(w.server.clock.now().getTime() + 200 * 86_400_000).toISOString().slice(0, 10);
    const receipt = { warehouseId, quantity: 3, lot: 'L-KX', expiry, supplier: 'Droguería Sur', documentNumber: 'F-9' };
    expectStatus(await w.post(`/productos/${productId}/ingresos`, receipt), 201);
    const issued = expectStatus(await w.post(`/productos/${productId}/salidas`, { warehouseId, quantity: 1, patientId }), 201);
    const minPosition = encodeURIComponent(issued.headers.get('x-event-position')!);

    for (const format of ['json', 'csv']) {
      const kardex = await read(w.a, `/productos/${productId}/kardex?formato=${format}&minPosition=${minPosition}`);
      expectStatus(kardex.answer, 200);
      assert.deepEqual((await entriesOf(w.server.admin.companyId, kardex.correlationId)).map(what), [
        ['productKardex', productId, '/productos/{id}/kardex', 200, 'allowed', [patientId]],
      ]);
    }

    const foreign = await read(w.b, `/productos/${productId}/kardex`);
    expectStatus(foreign.answer, 404);
    const companyB = expectStatus(await w.get('/empresas/actual', w.b), 200).body.id as string;
    const [entry] = await entriesOf(companyB, foreign.correlationId);
    assert.deepEqual(what(entry!).slice(0, 5), ['productKardex', productId, '/productos/{id}/kardex', 404, 'not-found']);
  });
});
