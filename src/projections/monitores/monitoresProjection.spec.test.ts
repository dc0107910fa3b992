// Spec of the Monitores projection: one document per machine, the decider's own state plus who/when.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { MACHINES, monitoresProjection } from './monitoresProjection.js';
import type { MachineDoc } from './machineDoc.js';

const given = projectionSpec(monitoresProjection);
const machine = streamOf('t1', 'machine', 'm1');
const otherCompany = streamOf('t2', 'machine', 'm1');
const fields = {
  code: 'M-01',
  serial: 'SN-1',
  brand: 'Fresenius',
  model: '4008S',
  locationId: 'l1',
  stationId: 's1',
  installDate: '2025-01-01',
  isolation: 'none',
};
const registered = (code = 'M-01') => ({ type: 'MachineRegistered', data: { machineId: 'm1', ...fields, code } });
const started = (sessionId: string) => ({
  type: 'MachineUseStarted',
  data: { sessionId, patientId: 'p1', startedAt: '2025-03-01T10:00:00.000Z', warnings: [], policyRevision: 3, patientIsolation: [] },
});
const ended = (sessionId: string, hourMeter: number, sessionCount: number) => ({
  type: 'MachineUseEnded',
  data: { sessionId, operatingHours: 4, hourMeter, sessionCount, disinfectionRequired: true, policyRevision: 3 },
});
const disinfected = {
  type: 'MachineDisinfected',
  data: { method: 'heat', afterSessionId: 'ses1', performedAt: '2025-03-01T15:00:00.000Z' },
};

describe('monitores projection', () => {
  it('follows a machine through a use and its disinfection, counting hours and sessions', async () => {
    const outcome = given(machine(registered(), started('ses1')));
    await outcome.then<MachineDoc>(MACHINES, 'm1', (doc) => assert.equal(doc.status, 'in-use'));
    await given(machine(registered(), started('ses1'), ended('ses1', 4, 1), disinfected)).then<MachineDoc>(MACHINES, 'm1', (doc) => {
      assert.deepEqual([doc.status, doc.hourMeter, doc.sessionCount, doc.lastSessionId], ['available', 4, 1, 'ses1']);
      assert.equal(doc.currentSession, null);
      assert.equal(doc.revision, 3);
    });
  });

  it('a correction changes the code it sorts by; a late end of another session never frees the machine', async () => {
    const corrected = { type: 'MachineCorrected', data: { changes: { code: ' M-02 ' }, previous: { code: 'M-01' } } };
    await given(machine(registered(), corrected)).then<MachineDoc>(MACHINES, 'm1', (doc) => {
      assert.equal(doc.code, ' M-02 ');
      assert.equal(doc.codeKey, 'm-02');
    });
    await given(machine(registered(), started('ses2'), ended('ses1', 4, 1))).then<MachineDoc>(MACHINES, 'm1', (doc) => {
      assert.equal(doc.status, 'in-use');
      assert.equal(doc.currentSession?.sessionId, 'ses2');
    });
  });

  it('changes nothing when events are delivered again', async () => {
    const events = machine(registered(), started('ses1'), ended('ses1', 4, 1));
    await given(events, events[2]!).then<MachineDoc>(MACHINES, 'm1', (doc) => assert.equal(doc.usesSincePm.length, 1));
    await given(events, machine(disinfected)).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(machine(registered()), otherCompany(registered('M-99')));
    await outcome.then<MachineDoc>(MACHINES, 'm1', (doc) => assert.equal(doc.code, 'M-01'));
    await outcome.in('t2').then<MachineDoc>(MACHINES, 'm1', (doc) => assert.equal(doc.code, 'M-99'));
    await given(otherCompany(registered())).in('t1').thenAbsent(MACHINES, 'm1');
  });
});
