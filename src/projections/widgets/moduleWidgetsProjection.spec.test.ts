// Spec of the module-records widget's read model: counters per (company, module, state) and per (company, module, month),
// moved once per event through each record's membership document.
import assert from 'node:assert/strict';
import { at, projectionSpec, streamOf } from '../runner/projectionSpec.js';
import {
  MODULE_WIDGET_COUNTERS,
  MODULE_WIDGET_RECORDS,
  moduleCounterId,
  moduleWidgetsProjection,
  type ModuleCounterDoc,
  type ModuleMemberDoc,
} from './moduleWidgetsProjection.js';

const given = projectionSpec(moduleWidgetsProjection);
const created = (module: string, state: string | null, values = {}) => ({
  type: 'ModuleRecordCreated',
  data: { recordId: 'x', module, major: 1, patientId: 'p1', values, state },
});
const r1 = streamOf('t1', 'moduleRecord', 'r1');
const r2 = streamOf('t1', 'moduleRecord', 'r2');
const r3 = streamOf('t1', 'moduleRecord', 'r3');
const moved = {
  type: 'ModuleRecordTransitioned',
  data: { module: 'vac', transition: 'sign', from: 'draft', to: 'signed', signed: true, patientId: 'p1' },
};
const archived = { type: 'ModuleRecordArchived', data: { module: 'vac', patientId: 'p1' } };
const amended = {
  type: 'ModuleRecordAmended',
  data: { module: 'vac', major: 1, values: { lot: 'L-2' }, cleared: ['note'], rewritten: false, patientId: 'p1' },
};
const count = (doc: ModuleCounterDoc) => doc.count;

describe('widgets-modules projection', () => {
  const events = [
    ...r1(at('2026-03-04T10:00:00Z', created('vac', 'draft', { dose: 1, note: 'n' })), moved, amended),
    ...r2(at('2026-03-20T10:00:00Z', created('vac', 'draft', { dose: 2 })), archived),
    ...r3(at('2026-04-01T10:00:00Z', created('agua', null, { ph: 7 }))),
  ];

  it('counts each module by state (archived apart, active without states) and by month created', async () => {
    const outcome = given(...events);
    await outcome.then<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, moduleCounterId('vac', 'state', 'signed'), (d) =>
      assert.equal(count(d), 1),
    );
    await outcome.then<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, moduleCounterId('vac', 'state', 'draft'), (d) =>
      assert.equal(count(d), 0),
    );
    await outcome.then<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, moduleCounterId('vac', 'state', 'archived'), (d) =>
      assert.equal(count(d), 1),
    );
    await outcome.then<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, moduleCounterId('vac', 'month', '2026-03'), (d) =>
      assert.equal(count(d), 2),
    );
    await outcome.then<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, moduleCounterId('agua', 'state', 'active'), (d) =>
      assert.equal(count(d), 1),
    );
    await outcome.then<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, moduleCounterId('agua', 'month', '2026-04'), (d) =>
      assert.equal(count(d), 1),
    );
    await outcome.thenFind<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, { module: 'vac', kind: 'month' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => [d.key, d.count]),
        [['2026-03', 2]],
      ),
    );
  });

  it('keeps a membership document per record with its values as amended', async () => {
    await given(...events).then<ModuleMemberDoc>(MODULE_WIDGET_RECORDS, 'r1', (doc) => {
      assert.deepEqual(
        [doc.module, doc.state, doc.archived, doc.patientId, doc.createdAt],
        ['vac', 'signed', false, 'p1', '2026-03-04T10:00:00Z'],
      );
      assert.deepEqual(doc.values, { dose: 1, lot: 'L-2' });
    });
  });

  it('moves each counter once per event (replays change nothing) and never across companies', async () => {
    await given(...events, events[1]!, events[3]!).then<ModuleCounterDoc>(
      MODULE_WIDGET_COUNTERS,
      moduleCounterId('vac', 'state', 'signed'),
      (d) => assert.equal(count(d), 1),
    );
    await given(...events).thenIdempotent();
    await given(...events)
      .in('t2')
      .thenAbsent(MODULE_WIDGET_COUNTERS, moduleCounterId('vac', 'month', '2026-03'));
  });
});
