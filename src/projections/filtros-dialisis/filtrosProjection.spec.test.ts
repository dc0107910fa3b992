// Spec of the FiltrosDialisis projection: one document per dialyzer with its readiness facts and reservation.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { DIALYZERS, filtrosProjection } from './filtrosProjection.js';
import type { DialyzerDoc } from './dialyzerDoc.js';

const given = projectionSpec(filtrosProjection);
const dialyzer = streamOf('t1', 'dialyzer', 'd1');
const otherCompany = streamOf('t2', 'dialyzer', 'd1');
const received = (serial = ' sn-7 ') => ({
  type: 'DialyzerReceived',
  data: { dialyzerId: 'd1', model: 'FX80', surfaceM2: 1.8, flux: 'high', membrane: 'Helixone', lot: 'L1', serial, reusable: true },
});
const assigned = { type: 'DialyzerAssignedToPatient', data: { patientId: 'p1', baselineTcvMl: 100 } };
const reserved = {
  type: 'DialyzerReservedForSession',
  data: { sessionId: 's1', patientId: 'p1', reservedAt: '2025-03-03T08:00:00.000Z', statusBefore: 'assigned', policyRevision: 1 },
};
const released = {
  type: 'DialyzerReservationReleased',
  data: { sessionId: 's1', reason: 'cancelled', releasedAt: '2025-03-03T08:30:00.000Z', status: 'assigned' },
};
const used = { type: 'DialyzerUsed', data: { sessionId: 's1', patientId: 'p1', useNumber: 1, maxUses: 12, policyRevision: 1 } };

describe('filtros-dialisis projection', () => {
  it('receives a dialyzer, assigns it to a patient and counts its first use', async () => {
    await given(dialyzer(received(), assigned, reserved, used)).then<DialyzerDoc>(DIALYZERS, 'd1', (doc) => {
      assert.deepEqual([doc.status, doc.patientId, doc.uses, doc.baselineTcvMl], ['used', 'p1', 1, 100]);
      assert.equal(doc.serialKey, 'SN-7');
      assert.equal(doc.reservation, undefined);
      assert.equal(doc.firstUseAt, doc.lastUseAt);
      assert.equal(doc.revision, 3);
    });
  });

  it('a released reservation gives the dialyzer back the status it states; a discard keeps its reason', async () => {
    await given(dialyzer(received(), assigned, reserved, released)).then<DialyzerDoc>(DIALYZERS, 'd1', (doc) => {
      assert.equal(doc.status, 'assigned');
      assert.equal(doc.reservation, undefined);
    });
    const discarded = { type: 'DialyzerDiscarded', data: { reason: 'max-uses-reached' } };
    await given(dialyzer(received(), assigned, discarded)).thenFind<DialyzerDoc>(DIALYZERS, { status: 'discarded' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => [d.id, d.discardReason]),
        [['d1', 'max-uses-reached']],
      ),
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = dialyzer(received(), assigned, reserved);
    await given(events, events[1]!).then<DialyzerDoc>(DIALYZERS, 'd1', (doc) => assert.equal(doc.status, 'in-use'));
    await given(events, dialyzer(used)).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(dialyzer(received()), otherCompany(received('SN-9')));
    await outcome.then<DialyzerDoc>(DIALYZERS, 'd1', (doc) => assert.equal(doc.serialKey, 'SN-7'));
    await outcome.in('t2').then<DialyzerDoc>(DIALYZERS, 'd1', (doc) => assert.equal(doc.serialKey, 'SN-9'));
    await given(otherCompany(received())).in('t1').thenAbsent(DIALYZERS, 'd1');
  });
});
