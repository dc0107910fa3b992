// The equipment widgets' read over a large company (`npx tsx bench/equipmentWidgets.ts`): their documents written
// straight into a SQLite read store (the fold's rate is the rebuild's business), then each widget's `read` 300 times.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSqliteReadStore } from '../src/stores/sqliteRead/sqliteReadStore.js';
import { createLogger } from '../src/logger.js';
import type { Collection, ReadDoc } from '../src/stores/readStore.js';
import { PLATFORM_DOCS } from '../src/stores/readStore.js';
import {
  DIALYZER_TCV,
  DIALYZER_USES,
  LOT_DAY,
  equipmentProjection,
  EQUIPMENT_COUNTERS,
  EQUIPMENT_DIALYZERS,
  EQUIPMENT_LOTS,
  EQUIPMENT_MACHINES,
  EQUIPMENT_PRODUCTS,
} from '../src/projections/widgets/equipmentProjection.js';
import { dialyzersAttention, machinesAttention, stockAttention } from '../src/queries/widgets/equipmentReads.js';
import type { TenantScope } from '../src/queries/tenantScope.js';

const MACHINES = 1_000;
const DIALYZERS = 20_000; // 10,000 patients, two dialyzers each
const PRODUCTS = 2_000;
const LOTS = 20_000;
const RUNS = 300;
const TODAY = '2026-06-15';
const day = (offset: number): string => new Date(Date.parse(`${TODAY}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'equipment-widgets-'));
  const store = await openSqliteReadStore({ file: path.join(dir, 'read.sqlite'), logger: createLogger('silent') });
  const open = new Map<string, Collection>();
  for (const [name, indexes] of Object.entries(equipmentProjection.collections)) open.set(name, await store.collection(name, indexes));
  const companies = await store.collection('companies');
  open.set('companies', companies);
  const services = {
    projections: { collection: (_projection: string, name: string) => open.get(name) ?? open.get('companies')! },
    now: () => new Date(`${TODAY}T12:00:00Z`),
  };
  const put = async (name: string, docs: ReadDoc[]) => {
    for (let i = 0; i < docs.length; i += 5_000)
      await open.get(name)!.bulkWrite(docs.slice(i, i + 5_000).map((doc) => ({ kind: 'replace', doc })));
  };
  for (const tenantId of ['t1', 't2']) {
    await companies.replace({ tenantId: PLATFORM_DOCS, id: tenantId, modules: ['Monitores', 'FiltrosDialisis', 'Productos'] });
    const statuses = ['available', 'available', 'available', 'in-use', 'awaiting-disinfection', 'out-of-service'];
    await put(
      EQUIPMENT_MACHINES,
      Array.from({ length: MACHINES }, (_, i) => {
        const status = statuses[i % statuses.length]!;
        const attention = status === 'awaiting-disinfection' || status === 'out-of-service' ? status : null;
        const hourMeter = (i * 7) % 1600;
        return {
          tenantId,
          id: `m${i}`,
          code: `M-${i}`,
          codeKey: `m-${i}`,
          brand: 'Fresenius',
          model: '4008S',
          modelKey: '4008s',
          status,
          attention,
          pmBaseDate: day(-((i * 13) % 200)),
          pmBaseHours: 0,
          hourMeter,
          hoursSincePm: hourMeter,
          _position: i,
        };
      }),
    );
    await put(EQUIPMENT_COUNTERS, [
      {
        tenantId,
        id: 'machines',
        counts: { 'awaiting-disinfection': Math.ceil(MACHINES / 6), 'out-of-service': Math.ceil(MACHINES / 6) },
        _position: 1,
      },
      { tenantId, id: 'products', counts: { 'below-minimum': PRODUCTS / 10 }, _position: 1 },
    ]);
    await put(
      EQUIPMENT_DIALYZERS,
      Array.from({ length: DIALYZERS }, (_, i) => ({
        tenantId,
        id: `d${i}`,
        serial: `SN-${i}`,
        model: 'FX80',
        modelKey: 'fx80',
        reusable: true,
        patientId: `p${i >> 1}`,
        uses: i % 16,
        lastTcvPercent: 80 + (i % 20),
        _position: i,
      })),
    );
    // The counters the projection keeps beside them: dialyzers by model and uses and by whole TCV percent, lots by expiry day.
    const tally = (keys: string[]) => keys.reduce<Record<string, number>>((c, k) => ({ ...c, [k]: (c[k] ?? 0) + 1 }), {});
    const ds = Array.from({ length: DIALYZERS }, (_, i) => i);
    await put(EQUIPMENT_COUNTERS, [
      { tenantId, id: DIALYZER_USES, counts: tally(ds.map((i) => `fx80|${i % 16}`)), _position: 2 },
      { tenantId, id: DIALYZER_TCV, counts: tally(ds.map((i) => String(80 + (i % 20)))), _position: 2 },
      ...Object.entries(tally(Array.from({ length: LOTS }, (_, i) => day((i % 730) - 30)))).map(([d, lots]) => ({
        tenantId,
        id: `${LOT_DAY}${d}`,
        day: d,
        counts: { lots },
        _position: 2,
      })),
    ]);
    await put(
      EQUIPMENT_PRODUCTS,
      Array.from({ length: PRODUCTS }, (_, i) => ({
        tenantId,
        id: `pr${i}`,
        code: `P-${i}`,
        codeKey: `p-${i}`,
        name: 'Product',
        unit: 'vial',
        stock: i % 50,
        minimumStock: 5,
        active: true,
        belowMinimum: i % 10 === 0,
        attention: i % 10 === 0 ? 'below-minimum' : null,
        _position: i,
      })),
    );
    await put(
      EQUIPMENT_LOTS,
      Array.from({ length: LOTS }, (_, i) => ({
        tenantId,
        id: `pr${i % PRODUCTS}_w1_L${i}`,
        productId: `pr${i % PRODUCTS}`,
        warehouseId: 'w1',
        lot: `L${i}`,
        expiry: day((i % 730) - 30),
        quantity: 10,
        updatedAt: TODAY,
        _position: i,
      })),
    );
  }
  const scope = { services, auth: { tenantId: 't1' } } as unknown as TenantScope;
  const cases: [string, () => Promise<unknown>][] = [
    ['machines-attention', () => machinesAttention(scope, TODAY)],
    ['dialyzers-attention', () => dialyzersAttention(scope)],
    ['stock-attention', () => stockAttention(scope, TODAY)],
  ];
  for (const [name, read] of cases) {
    for (let i = 0; i < 20; i++) await read();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await read();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
    const sample = (await read()) as { counts: unknown[]; items: unknown[] };
    console.log(`${name}: ${JSON.stringify(sample.counts)}, ${sample.items.length} items`);
    console.log(`${name}: mean ${(times.reduce((s, t) => s + t, 0) / RUNS).toFixed(2)} ms, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  }
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
