// Spec of the equipment widgets' projection: counters moved by each record's attention state, and the per-item documents
// the threshold and date lists read (machines' maintenance basis, dialyzers in service, lots with stock left).
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import {
  DIALYZER_TCV,
  DIALYZER_USES,
  EQUIPMENT_COUNTERS,
  EQUIPMENT_DIALYZERS,
  EQUIPMENT_LOTS,
  EQUIPMENT_MACHINES,
  EQUIPMENT_PRODUCTS,
  equipmentProjection,
  type CounterDoc,
} from './equipmentProjection.js';
import type { EquipmentDialyzerDoc, EquipmentMachineDoc, EquipmentProductDoc } from './equipmentDocs.js';

const given = projectionSpec(equipmentProjection);
const machine = (id: string, tenant = 't1') => streamOf(tenant, 'machine', id);
const registered = (id: string, model = '4008S') => ({
  type: 'MachineRegistered',
  data: {
    machineId: id,
    code: `M-${id}`,
    serial: `SN-${id}`,
    brand: 'Fresenius',
    model,
    locationId: 'l1',
    stationId: 's1',
    installDate: '2025-01-01',
    isolation: 'none',
  },
});
const started = {
  type: 'MachineUseStarted',
  data: {
    sessionId: 'ses1',
    patientId: 'p1',
    startedAt: '2025-03-01T10:00:00.000Z',
    warnings: [],
    policyRevision: 3,
    patientIsolation: [],
  },
};
const ended = {
  type: 'MachineUseEnded',
  data: { sessionId: 'ses1', operatingHours: 4, hourMeter: 4, sessionCount: 1, disinfectionRequired: true, policyRevision: 3 },
};
const disinfected = {
  type: 'MachineDisinfected',
  data: { method: 'heat', afterSessionId: 'ses1', performedAt: '2025-03-01T15:00:00.000Z' },
};
const fault = {
  type: 'MachineFaultReported',
  data: { ticketId: 'tk1', severity: 'major', problem: 'leak', openedAt: '2025-03-02T08:00:00.000Z', statusBeforeFault: 'available' },
};
const counts = (id: string, expected: Record<string, number>) => (doc: CounterDoc) => {
  assert.equal(doc.id, id);
  for (const [key, value] of Object.entries(expected)) assert.equal(doc.counts[key] ?? 0, value, key);
};

const dialyzer = streamOf('t1', 'dialyzer', 'd1');
const received = {
  type: 'DialyzerReceived',
  data: {
    dialyzerId: 'd1',
    model: ' FX80 ',
    surfaceM2: 1.8,
    flux: 'high',
    membrane: 'Helixone',
    lot: 'L1',
    serial: 'SN-7',
    reusable: true,
  },
};
const assigned = { type: 'DialyzerAssignedToPatient', data: { patientId: 'p1', baselineTcvMl: 100 } };
const used = { type: 'DialyzerUsed', data: { sessionId: 's1', patientId: 'p1', useNumber: 1, maxUses: 12, policyRevision: 1 } };
const reprocessed = {
  type: 'DialyzerReprocessed',
  data: {
    cycle: 1,
    tcvPercent: 83,
    tcvMl: 83,
    expiresOn: '2025-04-01',
    fillTime: '2025-03-03T08:00:00.000Z',
    germicide: { name: 'Peracidin' },
    storageLocation: 'A',
  },
};
const discarded = { type: 'DialyzerDiscarded', data: { reason: 'tcv-below-threshold', policyRevision: 1 } };

const product = streamOf('t1', 'product', 'pr1');
const stock = streamOf('t1', 'stock', 'pr1_w1');
const created = {
  type: 'ProductCreated',
  data: {
    productId: 'pr1',
    code: 'SF-1000',
    name: 'Suero',
    category: 'saline',
    unit: 'bag',
    minimumStock: 10,
    reusable: false,
    lotTracked: true,
    expiryTracked: true,
    prescriptionDrug: false,
  },
};
const line = (movementId: string, quantity: number, after: number) => ({
  movementId,
  productId: 'pr1',
  warehouseId: 'w1',
  lot: 'L1',
  expiry: '2026-01-31',
  quantity,
  lotBalanceAfter: after,
  balanceAfter: after,
});
const receivedStock = (id: string, quantity: number, after: number) => ({
  type: 'StockReceived',
  data: { ...line(id, quantity, after), supplier: 'Lab', documentNumber: 'F-1' },
});
const issued = (id: string, quantity: number, after: number) => ({
  type: 'StockIssued',
  data: { ...line(id, -quantity, after), reference: { kind: 'session', sessionId: 's1' }, fefo: true },
});

describe('widgets-equipment projection', () => {
  it('counts a machine awaiting disinfection after its use and out of service after a fault, and moves it back', async () => {
    const used1 = given(machine('m1')(registered('m1'), started, ended), machine('m2')(registered('m2'), fault));
    await used1.then<CounterDoc>(EQUIPMENT_COUNTERS, 'machines', counts('machines', { 'awaiting-disinfection': 1, 'out-of-service': 1 }));
    await used1.then<EquipmentMachineDoc>(EQUIPMENT_MACHINES, 'm1', (doc) => {
      assert.deepEqual(
        [doc.attention, doc.hoursSincePm, doc.pmBaseDate, doc.modelKey],
        ['awaiting-disinfection', 4, '2025-01-01', '4008s'],
      );
    });
    const clean = given(machine('m1')(registered('m1'), started, ended, disinfected), machine('m2')(registered('m2'), fault));
    await clean.then<CounterDoc>(EQUIPMENT_COUNTERS, 'machines', counts('machines', { 'awaiting-disinfection': 0, 'out-of-service': 1 }));
  });

  it('moves nothing twice when events are delivered again, and keeps each company apart', async () => {
    const events = machine('m1')(registered('m1'), started, ended);
    await given(events, events[2]!).then<CounterDoc>(EQUIPMENT_COUNTERS, 'machines', counts('machines', { 'awaiting-disinfection': 1 }));
    await given(events, machine('m1')(disinfected), machine('m3')(registered('m3'), fault)).thenIdempotent();
    const other = given(machine('m1')(registered('m1'), fault), machine('m9', 't2')(registered('m9'), fault));
    await other.then<CounterDoc>(EQUIPMENT_COUNTERS, 'machines', counts('machines', { 'out-of-service': 1 }));
    await other.in('t2').then<CounterDoc>(EQUIPMENT_COUNTERS, 'machines', counts('machines', { 'out-of-service': 1 }));
  });

  it('keeps a dialyzer in service with its uses and last TCV, and drops it when discarded', async () => {
    await given(dialyzer(received, assigned, used, reprocessed)).then<EquipmentDialyzerDoc>(EQUIPMENT_DIALYZERS, 'd1', (doc) => {
      assert.deepEqual([doc.patientId, doc.uses, doc.lastTcvPercent, doc.modelKey], ['p1', 1, 83, 'fx80']);
    });
    const counted = given(dialyzer(received, assigned, used, reprocessed));
    await counted.then<CounterDoc>(EQUIPMENT_COUNTERS, DIALYZER_USES, (doc) => assert.deepEqual(doc.counts, { 'fx80|1': 1 }));
    await counted.then<CounterDoc>(EQUIPMENT_COUNTERS, DIALYZER_TCV, (doc) => assert.deepEqual(doc.counts, { '83': 1 }));
    const gone = given(dialyzer(received, assigned, used, reprocessed, discarded));
    await gone.thenAbsent(EQUIPMENT_DIALYZERS, 'd1');
    await gone.then<CounterDoc>(EQUIPMENT_COUNTERS, DIALYZER_USES, (doc) => assert.deepEqual(doc.counts, {}));
    await gone.then<CounterDoc>(EQUIPMENT_COUNTERS, DIALYZER_TCV, (doc) => assert.deepEqual(doc.counts, {}));
    await given(dialyzer(received, assigned, reprocessed, discarded)).thenIdempotent();
  });

  it('counts a product below its minimum until stock comes in; keeps a lot while it has stock left', async () => {
    const low = given(product(created), stock(receivedStock('mv1', 5, 5)));
    await low.then<CounterDoc>(EQUIPMENT_COUNTERS, 'products', counts('products', { 'below-minimum': 1 }));
    await low.then<EquipmentProductDoc>(EQUIPMENT_PRODUCTS, 'pr1', (doc) =>
      assert.deepEqual([doc.stock, doc.attention], [5, 'below-minimum']),
    );
    await low.then(EQUIPMENT_LOTS, 'pr1_w1_L1');
    await low.then<CounterDoc>(EQUIPMENT_COUNTERS, 'lots:2026-01-31', (doc) =>
      assert.deepEqual([doc.day, doc.counts], ['2026-01-31', { lots: 1 }]),
    );
    const filled = given(product(created), stock(receivedStock('mv1', 5, 5), receivedStock('mv2', 20, 25)));
    await filled.then<CounterDoc>(EQUIPMENT_COUNTERS, 'products', counts('products', { 'below-minimum': 0 }));
    const emptied = given(product(created), stock(receivedStock('mv1', 20, 20), issued('mv2', 20, 0)));
    await emptied.thenAbsent(EQUIPMENT_LOTS, 'pr1_w1_L1');
    await emptied.then<CounterDoc>(EQUIPMENT_COUNTERS, 'lots:2026-01-31', (doc) => assert.deepEqual(doc.counts, {}));
    await emptied.then<CounterDoc>(EQUIPMENT_COUNTERS, 'products', counts('products', { 'below-minimum': 1 }));
    await emptied.thenIdempotent();
  });
});
