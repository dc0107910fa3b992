// Staff, machines, dialyzers, products and payers served from pages prepared once per change (issue 29 item 3): a
// page is kept while its collection is unchanged, a write is in its writer's next page, filters and cursors still
// work, and a company never gets another's page or cursor.
import assert from 'node:assert/strict';
import type { RecordDoc, RecordModel } from '../../src/queries/recordModel.js';
import { staffModel } from '../../src/queries/colaboradores/staffRecords.js';
import { machineModel } from '../../src/queries/monitores/machines.js';
import { dialyzerModel } from '../../src/queries/filtros-dialisis/dialyzers.js';
import { productModel } from '../../src/queries/productos/products.js';
import { clientModel } from '../../src/queries/clientes/clients.js';
import { startMonitoresWorld, type Json } from './monitoresWorld.js';
import { clientBody, withClients, type ClientesWorld } from './clientesWorld.js';
import { dialyzerBody } from './filtrosWorld.js';
import { productBody } from './productosWorld.js';
import { expectStatus, unique, type Answer } from './staffWorld.js';

interface ListCase {
  path: string;
  model: RecordModel<RecordDoc>;
  /** A field of the list's items that a damaged document shows. */
  field: string;
  /** A filter of the route, and what its items hold. */
  filter: { query: string; field: string; value: unknown };
  create(world: ClientesWorld, token: string): Promise<Answer>;
}

const positions = new Map<string, string>();
const CASES: ListCase[] = [
  {
    path: '/colaboradores',
    model: staffModel as unknown as RecordModel<RecordDoc>,
    field: 'givenNames',
    filter: { query: 'status=activo', field: 'status', value: 'active' },
    create: async (w, token) => {
      if (!positions.has(token)) positions.set(token, (await w.createPosition(token)).body.id as string);
      return w.hire(token, positions.get(token)!);
    },
  },
  {
    path: '/monitores',
    model: machineModel as unknown as RecordModel<RecordDoc>,
    field: 'brand',
    filter: { query: 'status=available', field: 'status', value: 'available' },
    create: (w, token) => w.register(token),
  },
  {
    path: '/filtros-dialisis',
    model: dialyzerModel as unknown as RecordModel<RecordDoc>,
    field: 'membrane',
    filter: { query: 'status=in-stock', field: 'status', value: 'in-stock' },
    create: async (w, token) => expectStatus(await w.call(token, 'POST', '/filtros-dialisis', { json: dialyzerBody() }), 201),
  },
  {
    path: '/productos',
    model: productModel as unknown as RecordModel<RecordDoc>,
    field: 'name',
    filter: { query: 'category=iron', field: 'category', value: 'iron' },
    create: async (w, token) => expectStatus(await w.call(token, 'POST', '/productos', { json: productBody() }), 201),
  },
  {
    path: '/clientes',
    model: clientModel as unknown as RecordModel<RecordDoc>,
    field: 'legalName',
    filter: { query: 'status=active', field: 'status', value: 'active' },
    create: async (w, token) => expectStatus(await w.call(token, 'POST', '/clientes', { json: clientBody() }), 201),
  },
];

const itemsOf = (answer: Answer): Json[] => expectStatus(answer, 200).body.items as Json[];
const idsOf = (answer: Answer): string[] => itemsOf(answer).map((item) => item.id as string);

for (const readStore of ['sqlite', 'memory'])
  describe(`Prepared record lists over HTTP (${readStore} read store)`, () => {
    let w: ClientesWorld;
    before(async () => {
      w = withClients(await startMonitoresWorld({ env: { READ_STORE: readStore } }));
    });
    after(async () => w?.close());

    for (const c of CASES) {
      const list = (token: string, query = ''): Promise<Answer> => w.call(token, 'GET', `${c.path}?limit=50${query}`);

      it(`${c.path}: keeps its page while the collection is unchanged, and prepares it afresh after a write`, async () => {
        const id = (await c.create(w, w.a)).body.id as string;
        const original = itemsOf(await list(w.a)).find((item) => item.id === id)![c.field];
        // A document changed behind the runner's back (no change stamp): the kept page does not show it...
        const { services } = w.server;
        const raw = await services.reads.collection(services.projections.collection(c.model.projection, c.model.logical).name);
        await raw.updateOne(w.server.admin.companyId, { id }, { $set: { [c.field]: 'Dañado' } });
        assert.equal(itemsOf(await list(w.a)).find((item) => item.id === id)![c.field], original, 'the kept page');
        // ... until a write through the runner: the next page is prepared from the collection as it is now.
        const next = (await c.create(w, w.a)).body.id as string;
        const items = itemsOf(await list(w.a));
        assert.ok(items.some((item) => item.id === next));
        assert.equal(items.find((item) => item.id === id)![c.field], 'Dañado');
      });

      it(`${c.path}: shows each write in its writer's next page, also with lists of the same page running alongside`, async () => {
        for (let n = 0; n < 4; n++) {
          const lists = Array.from({ length: 4 }, () => list(w.a));
          const created = await c.create(w, w.a);
          await Promise.all(lists);
          const position = created.headers.get('x-event-position')!;
          assert.ok(idsOf(await list(w.a)).includes(created.body.id as string), `write ${n} in the next page`);
          assert.ok(idsOf(await list(w.a, `&minPosition=${position}`)).includes(created.body.id as string));
        }
      });

      it(`${c.path}: never answers one company with another's page or cursor`, async () => {
        const mine = (await c.create(w, w.a)).body.id as string;
        const theirs = (await c.create(w, w.b)).body.id as string;
        for (let round = 0; round < 3; round++) {
          const a = idsOf(await list(w.a));
          const b = idsOf(await list(w.b));
          assert.ok(a.includes(mine) && !a.includes(theirs));
          assert.ok(b.includes(theirs) && !b.includes(mine));
        }
        await c.create(w, w.a);
        await c.create(w, w.a);
        const cursor = expectStatus(await w.call(w.a, 'GET', `${c.path}?limit=1`), 200).body.nextCursor as string;
        expectStatus(await w.call(w.b, 'GET', `${c.path}?limit=1&cursor=${encodeURIComponent(cursor)}`), 400);
      });

      it(`${c.path}: walks every page with its cursor, twice alike, and filters`, async () => {
        await c.create(w, w.a);
        const all = idsOf(await list(w.a));
        assert.ok(all.length >= 3, 'a few records to walk');
        const walk = async (): Promise<string[]> => {
          const ids: string[] = [];
          let cursor: string | null = null;
          do {
            const page: Answer = await w.call(w.a, 'GET', `${c.path}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
            ids.push(...idsOf(page));
            cursor = page.body.nextCursor as string | null;
          } while (cursor);
          return ids;
        };
        assert.deepEqual(await walk(), all);
        assert.deepEqual(await walk(), all, 'the kept pages and their cursors walk the same list');
        const filtered = itemsOf(await list(w.a, `&${c.filter.query}`));
        assert.ok(filtered.length > 0);
        for (const item of filtered) assert.equal(item[c.filter.field], c.filter.value);
        const other = itemsOf(await list(w.a, `&updatedSince=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`));
        assert.deepEqual(other, [], 'updatedSince is part of what a page is kept for');
      });
    }

    it("/productos: a stock movement (another stream, the same collection) is in the writer's next page and filter", async () => {
      const json = productBody({ lotTracked: false, expiryTracked: false, prescriptionDrug: false, minimumStock: 5 });
      const id = expectStatus(await w.call(w.a, 'POST', '/productos', { json }), 201).body.id as string;
      const product = async (query = ''): Promise<Json | undefined> =>
        itemsOf(await w.call(w.a, 'GET', `/productos?limit=50${query}`)).find((p) => p.id === id);
      assert.deepEqual([(await product())!.stock, (await product())!.belowMinimum], [0, true]);
      assert.ok(await product('&belowMinimum=true'));
      const warehouse = { locationId: w.stationA.locationId, code: unique('W-'), name: 'Farmacia', kind: 'pharmacy' };
      const warehouseId = expectStatus(await w.call(w.a, 'POST', '/productos/almacenes', { json: warehouse }), 201).body.id as string;
      const receipt = { warehouseId, quantity: 10, supplier: 'B. Braun', documentNumber: unique('F-') };
      const received = await w.call(w.a, 'POST', `/productos/${id}/ingresos`, { json: receipt });
      assert.ok(received.status < 300, `receipt answered ${received.status}`);
      // A movement's answer does not wait for the read models: its writer reads at its position (read-your-writes).
      const at = `&minPosition=${encodeURIComponent(received.headers.get('x-event-position')!)}`;
      assert.deepEqual([(await product(at))!.stock, (await product())!.belowMinimum], [10, false]);
      assert.equal(await product(`&belowMinimum=true${at}`), undefined);
    });

    it('/monitores: a page follows the service clock and the company policy, which are not in its collection', async () => {
      const model = unique('Model-');
      const id = (await w.register(w.a, { model })).body.id as string;
      const maintenance = async (at = ''): Promise<Json> =>
        itemsOf(await w.call(w.a, 'GET', `/monitores?limit=50${at}`)).find((m) => m.id === id)!.maintenance;
      const before = await maintenance();
      const policy = expectStatus(await w.call(w.a, 'GET', '/empresas/actual/politica'), 200);
      const settings = { maintenance: { modelOverrides: [{ model, preventiveEveryHours: 50, preventiveEveryDays: 30 }] } };
      const put = { json: { settings, reason: 'manufacturer plan' }, headers: { 'if-match': policy.headers.get('etag')! } };
      const changed = expectStatus(await w.call(w.a, 'PUT', '/empresas/actual/politica', put), 200);
      // The page is dated under the policy read model: its writer reads at the change's position (read-your-writes).
      const at = `&minPosition=${encodeURIComponent(changed.headers.get('x-event-position')!)}`;
      const after = await maintenance(at);
      assert.notDeepEqual(after, before, 'the new plan is in the next page');
      assert.equal(after.everyDays, 30);
      assert.equal(after.overdue, true, 'installed 2024-06-01: 30 days later is long past');
      assert.equal((await maintenance()).overdue, true);
      const due = await w.call(w.a, 'GET', `/monitores?limit=50&pmVenceEnDias=0${at}`);
      assert.ok(idsOf(due).includes(id));
    });
  });

// Its own server: the clock moves a year ahead, which ends every session of the other suites.
describe('Prepared record lists over HTTP: the machine list follows the service clock', () => {
  it('shows a maintenance falling due on the day the clock reaches it, for the very same query', async () => {
    const w = await startMonitoresWorld();
    try {
      const today = w.server.clock.now().toISOString().slice(0, 10);
      const id = (await w.register(w.a, { installDate: today })).body.id as string;
      const overdue = async (): Promise<boolean> =>
        itemsOf(await w.call(w.a, 'GET', '/monitores?limit=50')).find((m) => m.id === id)!.maintenance.overdue as boolean;
      assert.equal(await overdue(), false);
      assert.equal(await overdue(), false);
      w.server.clock.advance(400 * 86_400_000);
      await w.refreshSessions();
      assert.equal(await overdue(), true, 'a year and more later, the same page says overdue');
    } finally {
      await w.close();
    }
  });
});
