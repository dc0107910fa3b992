// Spec of the Lineas projection: arterial and venous lines in one collection, each carrying its kind.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { BLOODLINES, lineasProjection } from './lineasProjection.js';
import type { BloodlineDoc } from './bloodlineDoc.js';

const given = projectionSpec(lineasProjection);
const arterial = streamOf('t1', 'arterialLine', 'a1');
const venous = streamOf('t1', 'venousLine', 'v1');
const otherCompany = streamOf('t2', 'arterialLine', 'a1');
const received = (lineId: string, lineType: string, model = 'AV-Set') => ({
  type: 'BloodlineReceived',
  data: { lineId, lineType, model, lot: 'L1', serial: `S-${lineId}`, primingVolumeMl: 150, reusable: true, receivedOn: '2025-03-01' },
});
const assigned = { type: 'BloodlineAssignedToPatient', data: { patientId: 'p1', maxUses: 3, policyRevision: 1 } };
const used = (useNumber: number) => ({
  type: 'BloodlineUsed',
  data: { sessionId: `s${useNumber}`, patientId: 'p1', useNumber, maxUses: 3, policyRevision: 1 },
});

describe('lineas projection', () => {
  it('receives a line, assigns it and counts its uses and the uses left', async () => {
    await given(arterial(received('a1', 'arterial'), assigned, used(1), used(2))).then<BloodlineDoc>(BLOODLINES, 'a1', (doc) => {
      assert.deepEqual([doc.lineType, doc.status, doc.uses, doc.usesLeft, doc.lastSessionId], ['arterial', 'in-use', 2, 1, 's2']);
      assert.equal(doc.revision, 3);
    });
  });

  it('pairs two lines and undoes the pairing; a discard keeps its reason', async () => {
    const paired = { type: 'BloodlinesPaired', data: { partnerId: 'v1' } };
    const undone = { type: 'BloodlinePairingUndone', data: { partnerId: 'v1' } };
    const outcome = given(arterial(received('a1', 'arterial'), paired, undone), venous(received('v1', 'venous')));
    await outcome.then<BloodlineDoc>(BLOODLINES, 'a1', (doc) => assert.equal(doc.partnerId, undefined));
    await outcome.thenFind<BloodlineDoc>(BLOODLINES, { lineType: 'venous' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['v1'],
      ),
    );
    const discarded = { type: 'BloodlineDiscarded', data: { reason: 'damaged' } };
    await given(arterial(received('a1', 'arterial'), discarded)).then<BloodlineDoc>(BLOODLINES, 'a1', (doc) =>
      assert.deepEqual([doc.status, doc.discardReason], ['discarded', 'damaged']),
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = arterial(received('a1', 'arterial'), assigned, used(1));
    await given(events, events[2]!).then<BloodlineDoc>(BLOODLINES, 'a1', (doc) => assert.equal(doc.uses, 1));
    await given(events, venous(received('v1', 'venous'))).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(arterial(received('a1', 'arterial')), otherCompany(received('a1', 'arterial', 'Other')));
    await outcome.then<BloodlineDoc>(BLOODLINES, 'a1', (doc) => assert.equal(doc.model, 'AV-Set'));
    await outcome.in('t2').then<BloodlineDoc>(BLOODLINES, 'a1', (doc) => assert.equal(doc.model, 'Other'));
    await given(otherCompany(received('a1', 'arterial')))
      .in('t1')
      .thenAbsent(BLOODLINES, 'a1');
  });
});
