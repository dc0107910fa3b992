// Spec of the Generador records projection: records folded from their streams, their values mapped onto their module's
// current major, and every stored record re-mapped when the module gains a major version.
import assert from 'node:assert/strict';
import { at, projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { MODULE_RECORD_SLOTS, MODULE_RECORDS, moduleRecordsProjection, type ModuleMajorsDoc } from './moduleRecordsProjection.js';
import type { ModuleRecordDoc } from './moduleRecordDoc.js';
import type { ModuleDefinition, UpcastStep } from '../../commands/generador/shared/definitionTypes.js';

const given = projectionSpec(moduleRecordsProjection);
const definition: ModuleDefinition = {
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: [
    { name: 'dose', label: 'Dosis', type: 'integer', required: true },
    { name: 'lot', label: 'Lote', type: 'text' },
  ],
  filterFields: ['dose'],
  sortFields: ['dose'],
  states: { initial: 'draft', states: [], transitions: [] },
};
const hepB = streamOf('t1', 'generatedModule', 'hep-b');
const defined = { type: 'ModuleDefined', data: { code: 'hep-b', definition, version: { major: 1, minor: 0 } } };
const changed = { type: 'ModuleDefinitionChanged', data: { definition, version: { major: 1, minor: 1 }, changes: ['lot'] } };
const published = { type: 'ModulePublished', data: { version: { major: 1, minor: 1 } } };
const upcast: UpcastStep[] = [
  { op: 'rename', from: 'lot', to: 'batch' },
  { op: 'default', field: 'site', value: 'deltoid' },
];
const majorAdded = { type: 'ModuleMajorVersionAdded', data: { definition, version: { major: 2, minor: 0 }, upcast, changes: [] } };

const record = (id: string, tenant = 't1') => streamOf(tenant, 'moduleRecord', id);
const created = (values: Record<string, unknown>, patientId = 'p1', major = 1) => ({
  type: 'ModuleRecordCreated',
  data: { recordId: 'x', module: 'hep-b', major, patientId, values, state: 'draft' },
});
const amended = (values: Record<string, unknown>, cleared: string[] = [], major = 1, rewritten = false) => ({
  type: 'ModuleRecordAmended',
  data: { module: 'hep-b', major, values, cleared, rewritten, patientId: 'p1' },
});
const signed = {
  type: 'ModuleRecordTransitioned',
  data: { module: 'hep-b', transition: 'sign', from: 'draft', to: 'signed', signed: true, patientId: 'p1' },
};
const archived = { type: 'ModuleRecordArchived', data: { module: 'hep-b', patientId: 'p1' } };

describe('generador records projection', () => {
  it('folds a record: written values, amendments and clears, a signing transition, the archive', async () => {
    const events = [
      hepB(defined, changed, published),
      record('r1')(
        created({ dose: 1, lot: 'A1' }),
        amended({ dose: 2 }, ['lot']),
        at('2025-03-04T10:00:00.000Z', signed, { actor: 'user-doc' }),
        archived,
      ),
    ];
    await given(...events).then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) => {
      assert.deepEqual([doc.module, doc.patientId, doc.state, doc.archived, doc.major, doc.minor], ['hep-b', 'p1', 'signed', true, 1, 1]);
      assert.deepEqual(doc.written, { dose: 2 });
      assert.deepEqual(doc.values, { dose: 2 });
      assert.deepEqual([doc.signedAt, doc.signedBy, doc.revision], ['2025-03-04T10:00:00.000Z', 'user-doc', 3]);
    });
    await given(...events).thenIdempotent();
  });

  it('a major version added after records exist re-maps each of them (a rename, a default) and leaves written alone', async () => {
    const outcome = given(
      hepB(defined, published),
      record('r1')(created({ dose: 1, lot: 'A1' })),
      record('r2')(created({ dose: 2 }, 'p2')),
      hepB(majorAdded),
      record('r3')(created({ dose: 3, batch: 'C3', site: 'thigh' }, 'p1', 2)),
    );
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) => {
      assert.deepEqual(doc.values, { dose: 1, batch: 'A1', site: 'deltoid' });
      assert.deepEqual([doc.written, doc.major, doc.minor], [{ dose: 1, lot: 'A1' }, 1, 0]);
    });
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r2', (doc) => assert.deepEqual(doc.values, { dose: 2, site: 'deltoid' }));
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r3', (doc) =>
      assert.deepEqual([doc.values, doc.major], [{ dose: 3, batch: 'C3', site: 'thigh' }, 2]),
    );
    await outcome.then<ModuleMajorsDoc>(MODULE_RECORD_SLOTS, 'hep-b', (doc) =>
      assert.deepEqual([doc.majors.map((m) => m.major), doc.slots], [[1, 2], 3]),
    );
    await outcome.thenFind<ModuleRecordDoc>(MODULE_RECORDS, { 'values.batch': 'A1' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['r1'],
      ),
    );
  });

  it('an old record amended later is still read through the mapping; a rewrite moves it onto the new major', async () => {
    const outcome = given(
      hepB(defined, published),
      record('r1')(created({ dose: 1, lot: 'A1' })),
      record('r2')(created({ dose: 2, lot: 'B2' })),
      hepB(majorAdded),
      record('r1')(amended({ dose: 5 })),
      record('r2')(amended({ dose: 6, batch: 'B2', site: 'arm' }, [], 2, true)),
    );
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) =>
      assert.deepEqual(doc.values, { dose: 5, batch: 'A1', site: 'deltoid' }),
    );
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r2', (doc) => {
      assert.deepEqual(
        [doc.written, doc.values, doc.major],
        [{ dose: 6, batch: 'B2', site: 'arm' }, { dose: 6, batch: 'B2', site: 'arm' }, 2],
      );
    });
  });

  it("a record's minor: the one its event names, else the module's when it was written (amendments included)", async () => {
    const withMinor = { ...created({ dose: 1 }), data: { ...created({ dose: 1 }).data, minor: 0 } };
    const outcome = given(
      hepB(defined),
      record('r1')(created({ dose: 1 })),
      record('r2')(withMinor),
      hepB(changed),
      record('r1')(amended({ dose: 2 })),
    );
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) => assert.equal(doc.minor, 1));
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r2', (doc) => assert.equal(doc.minor, 0));
    const late = given(hepB(defined, changed), record('r1')(withMinor));
    await late.then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) => assert.equal(doc.minor, 0));
  });

  it('changes nothing when events are delivered again, a major version included', async () => {
    const r1 = record('r1')(created({ dose: 1, lot: 'A1' }));
    const added = hepB(majorAdded);
    await given(hepB(defined), r1, r1[0]!, added, added[0]!).then<ModuleMajorsDoc>(MODULE_RECORD_SLOTS, 'hep-b', (doc) =>
      assert.equal(doc.slots, 1),
    );
    await given(hepB(defined), r1, added).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(hepB(defined), record('r1')(created({ dose: 1 })), record('r1', 't2')(created({ dose: 9 })));
    await outcome.then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) => assert.deepEqual(doc.values, { dose: 1 }));
    await outcome.in('t2').then<ModuleRecordDoc>(MODULE_RECORDS, 'r1', (doc) => assert.deepEqual(doc.values, { dose: 9 }));
    await given(record('r1', 't2')(created({ dose: 9 })))
      .in('t1')
      .thenAbsent(MODULE_RECORDS, 'r1');
  });
});
