// The records of a company-defined module as its list and reads answer them, on every real read store: filters on the
// module's fields, sorts both ways, cursor pages, the patient filter, one company never seeing another's, one module
// never serving another's record, and a record written before a major version read through its mapping.
import assert from 'node:assert/strict';
import { streamName, type RecordedEvent } from '../../src/stores/eventStore.js';
import type { Collection } from '../../src/stores/readStore.js';
import type { ProjectedDoc } from '../../src/projections/runner/projection.js';
import { eventTypeSet } from '../../src/projections/runner/projection.js';
import { ProjectionBatch } from '../../src/projections/runner/projectionBatch.js';
import { ParkedScopes } from '../../src/projections/runner/parkedScopes.js';
import { versionSuffix } from '../../src/projections/runner/checkpoints.js';
import { moduleRecordsProjection } from '../../src/projections/generador/moduleRecordsProjection.js';
import { foldModule, type ModuleDoc } from '../../src/projections/generador/moduleDoc.js';
import type { ModuleDefinition } from '../../src/commands/generador/shared/definitionTypes.js';
import type { TenantScope } from '../../src/queries/tenantScope.js';
import {
  countModuleRecords,
  listModuleRecords,
  moduleRecordView,
  recordIdsOfPatient,
  recordOfModule,
  recordOfModuleAt,
  type ModuleRecordListQuery,
} from '../../src/queries/generador/moduleRecords.js';
import { readStoreImplementations, type OpenedReadStore } from '../support/storeImplementations.js';

const T0 = Date.parse('2026-01-05T08:00:00.000Z');
const definition: ModuleDefinition = {
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: [
    { name: 'dose', label: 'Dosis', type: 'integer', required: true },
    { name: 'lot', label: 'Lote', type: 'text' },
    { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['0-1-6', '0-1-2-12'] },
  ],
  listFields: ['dose'],
  filterFields: ['dose', 'schedule'],
  sortFields: ['dose'],
};
const v2: ModuleDefinition = {
  ...definition,
  fields: [
    { name: 'dose', label: 'Dosis', type: 'integer', required: true },
    { name: 'batch', label: 'Lote', type: 'text' },
    { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['0-1-6', '0-1-2-12'] },
    { name: 'site', label: 'Sitio', type: 'text', required: true },
  ],
  listFields: ['dose', 'site'],
  filterFields: ['dose', 'schedule', 'batch'],
};

/** The log of a test: events numbered as the store would (position, revision per stream, a minute apart). */
class Log {
  readonly events: RecordedEvent[] = [];
  add(tenant: string, category: string, id: string, type: string, data: Record<string, unknown>): RecordedEvent {
    const stream = streamName(tenant, category, id);
    const position = BigInt(this.events.length + 1);
    const event: RecordedEvent = {
      id: `e${position}`,
      type,
      data,
      streamName: stream,
      revision: this.events.filter((e) => e.streamName === stream).length,
      position,
      metadata: {
        tenantId: tenant,
        actor: 'user:u1',
        sessionId: null,
        correlationId: 'c',
        causationId: null,
        commandId: `k${position}`,
        occurredAt: new Date(T0 + Number(position) * 60_000).toISOString(),
        ip: null,
        userAgent: null,
        reason: null,
      },
    };
    this.events.push(event);
    return event;
  }
  module(tenant: string, type: string, data: Record<string, unknown>): RecordedEvent {
    return this.add(tenant, 'generatedModule', 'hep-b', type, data);
  }
  record(tenant: string, id: string, type: string, data: Record<string, unknown>, module = 'hep-b'): RecordedEvent {
    return this.add(tenant, 'moduleRecord', id, type, { module, patientId: data.patientId ?? 'p1', ...data });
  }
  created(tenant: string, id: string, values: Record<string, unknown>, patientId = 'p1', module = 'hep-b', major = 1): RecordedEvent {
    return this.record(tenant, id, 'ModuleRecordCreated', { recordId: id, major, patientId, values, state: null }, module);
  }
  moduleDoc(tenant: string): ModuleDoc {
    let doc: ModuleDoc | null = null;
    for (const e of this.events) if (e.streamName === streamName(tenant, 'generatedModule', 'hep-b')) doc = foldModule(doc, e);
    return doc!;
  }
}

async function project(log: Log, store: OpenedReadStore): Promise<Map<string, Collection<ProjectedDoc>>> {
  const opened = new Map<string, Collection<ProjectedDoc>>();
  for (const [name, indexes] of Object.entries(moduleRecordsProjection.collections)) {
    opened.set(name, await store.store.collection<ProjectedDoc>(name + versionSuffix(moduleRecordsProjection.version), indexes));
  }
  const batch = new ProjectionBatch(moduleRecordsProjection, opened, 0n, new ParkedScopes());
  for (const event of log.events) await batch.apply(event, eventTypeSet(moduleRecordsProjection));
  await batch.writeBack();
  return opened;
}

function scopeOf(tenantId: string, opened: Map<string, Collection<ProjectedDoc>>, log: Log): TenantScope {
  const services = {
    projections: { collection: (_p: string, name: string) => opened.get(name), waitFor: () => Promise.resolve(true) },
    events: { readStream: (stream: string) => Promise.resolve(log.events.filter((e) => e.streamName === stream)) },
  };
  return { auth: { tenantId }, services } as unknown as TenantScope;
}

for (const implementation of readStoreImplementations()) {
  describe(`module records read on the ${implementation.name} read store`, function () {
    let store: OpenedReadStore;
    let log: Log;
    let t1: TenantScope;
    let t2: TenantScope;
    let hepB: ModuleDoc;

    before(async function () {
      store = await implementation.open();
      log = new Log();
      log.module('t1', 'ModuleDefined', { code: 'hep-b', definition, version: { major: 1, minor: 0 } });
      log.module('t1', 'ModulePublished', { version: { major: 1, minor: 0 } });
      log.module('t2', 'ModuleDefined', { code: 'hep-b', definition, version: { major: 1, minor: 0 } });
      // Five doses for t1 (p1: r1, r3, r5; p2: r2, r4), created in order r1..r5; one of t2; one of another module.
      for (let n = 1; n <= 5; n++) {
        log.created('t1', `r${n}`, { dose: (n * 3) % 5, lot: `L${n}`, schedule: n % 2 ? '0-1-6' : '0-1-2-12' }, n % 2 ? 'p1' : 'p2');
      }
      log.created('t2', 'x1', { dose: 1, lot: 'T2' });
      log.created('t1', 'o1', { note: 'other' }, 'p1', 'water-log');
      log.record('t1', 'r1', 'ModuleRecordAmended', { major: 1, values: { lot: 'L1b' }, cleared: [], rewritten: false });
      log.record('t1', 'r5', 'ModuleRecordArchived', {});
      log.module('t1', 'ModuleMajorVersionAdded', {
        definition: v2,
        version: { major: 2, minor: 0 },
        upcast: [
          { op: 'rename', from: 'lot', to: 'batch' },
          { op: 'default', field: 'site', value: 'deltoid' },
        ],
        changes: [],
      });
      log.created('t1', 'r6', { dose: 9, batch: 'L6', site: 'thigh' }, 'p2', 'hep-b', 2);
      const opened = await project(log, store);
      [t1, t2, hepB] = [scopeOf('t1', opened, log), scopeOf('t2', opened, log), log.moduleDoc('t1')];
    });
    after(() => store.dispose());

    const list = async (query: Partial<ModuleRecordListQuery>, scope = t1): Promise<Record<string, unknown>[]> =>
      (await listModuleRecords(scope, hepB, { limit: 50, ...query })).items;
    const ids = (items: Record<string, unknown>[]): unknown[] => items.map((i) => i.id);

    it('lists newest first by default, archived records apart, each item with the list fields through the mapping', async () => {
      const items = await list({});
      assert.deepEqual(ids(items), ['r6', 'r4', 'r3', 'r2', 'r1']);
      assert.deepEqual(items.at(-1), {
        ...items.at(-1),
        values: { dose: 3, site: 'deltoid' },
        version: { major: 1, minor: 0 },
        patientId: 'p1',
        archived: false,
      });
      assert.deepEqual(ids(await list({ archived: true })), ['r5']);
    });

    it("filters on the module's fields (a query's text read as the field's type) and on the patient", async () => {
      assert.deepEqual(ids(await list({ filters: { dose: '1' } })), ['r2']);
      assert.deepEqual(ids(await list({ filters: { schedule: '0-1-6' }, order: 'asc' })), ['r1', 'r3']);
      assert.deepEqual(ids(await list({ patientId: 'p2' })), ['r6', 'r4', 'r2']);
      assert.deepEqual(ids(await list({ patientId: 'p2', filters: { dose: 2 } })), ['r4']);
      // The renamed field filters under its new name, old records included.
      assert.deepEqual(ids(await list({ filters: { batch: 'L1b' } })), ['r1']);
      await assert.rejects(list({ filters: { lot: 'L1' } }), (e: { status: number; errors: { pointer: string }[] }) => {
        assert.deepEqual([e.status, e.errors[0]!.pointer], [422, '/query/lot']);
        return true;
      });
      await assert.rejects(list({ filters: { dose: 'two' } }), { status: 422 });
    });

    it('sorts on a sort field both ways and on updatedAt, ties broken by id', async () => {
      // doses: r1 3, r2 1, r3 4, r4 2, r6 9
      assert.deepEqual(ids(await list({ sort: 'dose', order: 'asc' })), ['r2', 'r4', 'r1', 'r3', 'r6']);
      assert.deepEqual(ids(await list({ sort: 'dose', order: 'desc' })), ['r6', 'r3', 'r1', 'r4', 'r2']);
      assert.deepEqual(ids(await list({ sort: 'updatedAt', order: 'desc' })), ['r6', 'r1', 'r4', 'r3', 'r2']);
      await assert.rejects(list({ sort: 'lot' }), { status: 422 });
    });

    it('pages with stable cursors, each sort both ways', async () => {
      for (const sort of ['dose', 'createdAt'])
        for (const order of ['asc', 'desc'] as const) {
          const whole = ids(await list({ sort, order }));
          const paged: unknown[] = [];
          let cursor: string | undefined;
          do {
            const page = await listModuleRecords(t1, hepB, { sort, order, limit: 2, cursor });
            paged.push(...ids(page.items));
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
          assert.deepEqual(paged, whole, `${sort} ${order}`);
        }
    });

    it('keeps each company to its own records, and each module to its own', async () => {
      assert.deepEqual(ids(await list({}, t2)), ['x1']);
      await assert.rejects(recordOfModule(t1, 'hep-b', 'x1'), { status: 404 });
      await assert.rejects(recordOfModule(t2, 'hep-b', 'r1'), { status: 404 });
      await assert.rejects(recordOfModule(t1, 'hep-b', 'o1'), { status: 404 });
      await assert.rejects(recordOfModule(t1, 'water-log', 'r1'), { status: 404 });
      await assert.rejects(recordOfModuleAt(t1, 'water-log', 'r1', { version: 0 }), { status: 404 });
      await assert.rejects(recordOfModuleAt(t2, 'hep-b', 'r1', { version: 0 }), { status: 404 });
      assert.equal((await recordOfModule(t1, 'water-log', 'o1')).id, 'o1');
    });

    it('reads a record through the rename and the default, now and as it was before its amendment', async () => {
      const now = moduleRecordView(await recordOfModule(t1, 'hep-b', 'r1'), hepB);
      assert.deepEqual(now.values, { dose: 3, batch: 'L1b', schedule: '0-1-6', site: 'deltoid' });
      assert.deepEqual([now.revision, now.version], [1, { major: 1, minor: 0 }]);
      const before = await recordOfModuleAt(t1, 'hep-b', 'r1', { asOf: log.events[3]!.metadata.occurredAt });
      assert.deepEqual(moduleRecordView(before.doc, hepB).values, { dose: 3, batch: 'L1', schedule: '0-1-6', site: 'deltoid' });
      assert.equal(before.version, 0);
    });

    it("counts a module's records and names a patient's records of every module", async () => {
      assert.equal(await countModuleRecords(t1, 'hep-b'), 5);
      assert.equal(await countModuleRecords(t1, 'hep-b', { patientId: 'p1' }), 2);
      assert.equal(await countModuleRecords(t2, 'hep-b'), 1);
      assert.deepEqual(await recordIdsOfPatient(t1, 'p1'), [
        { id: 'o1', module: 'water-log' },
        { id: 'r1', module: 'hep-b' },
        { id: 'r3', module: 'hep-b' },
        { id: 'r5', module: 'hep-b' },
      ]);
    });
  });
}
