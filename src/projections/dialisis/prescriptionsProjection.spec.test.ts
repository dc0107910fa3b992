// Spec of the prescriptions projection: one document per version, with its effective period and successor.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { PRESCRIPTION_VERSIONS, prescriptionsProjection } from './prescriptionsProjection.js';
import type { PrescriptionDoc } from './prescriptionsDoc.js';

const given = projectionSpec(prescriptionsProjection);
const prescriptions = streamOf('t1', 'prescription', 'p1');
const otherCompany = streamOf('t2', 'prescription', 'p1');
const issued = (version: number, validFrom: string, durationMinutes = 240) => ({
  type: 'PrescriptionIssued',
  data: {
    modality: 'HD',
    durationMinutes,
    frequencyPerWeek: 3,
    qbMlMin: 350,
    qdMlMin: 500,
    validFrom,
    patientId: 'p1',
    version,
    supersedes: version > 1 ? version - 1 : null,
    prescribedBy: { userId: 'u-doc', staffId: 'st-doc' },
    issuedAt: '2025-03-01T09:00:00.000Z',
  },
});
const discontinued = (version: number, from: string) => ({
  type: 'PrescriptionDiscontinued',
  data: { version, from, reason: 'transplanted', discontinuedAt: '2025-05-01T09:00:00.000Z' },
});

describe('dialisis prescriptions projection', () => {
  it('issues version 1, open-ended, issued by the prescriber', async () => {
    await given(prescriptions(issued(1, '2025-03-01'))).then<PrescriptionDoc>(PRESCRIPTION_VERSIONS, 'p1:1', (doc) => {
      assert.equal(doc.durationMinutes, 240);
      assert.equal(doc.effectiveTo, null);
      assert.equal(doc.supersededBy, null);
      assert.equal(doc.issuedBy, 'user-1');
    });
  });

  it('a new version supersedes the old one the day before it starts; a discontinuation ends the one in force', async () => {
    const outcome = given(prescriptions(issued(1, '2025-03-01'), issued(2, '2025-04-01', 210), discontinued(2, '2025-05-01')));
    await outcome.then<PrescriptionDoc>(PRESCRIPTION_VERSIONS, 'p1:1', (doc) => {
      assert.equal(doc.supersededBy, 2);
      assert.equal(doc.effectiveTo, '2025-03-31');
      assert.equal(doc.revision, 1);
    });
    await outcome.then<PrescriptionDoc>(PRESCRIPTION_VERSIONS, 'p1:2', (doc) => {
      assert.equal(doc.durationMinutes, 210);
      assert.equal(doc.effectiveTo, '2025-04-30');
      assert.equal(doc.discontinued?.reason, 'transplanted');
    });
    await outcome.thenFind<PrescriptionDoc>(
      PRESCRIPTION_VERSIONS,
      { patientId: 'p1' },
      (docs) =>
        assert.deepEqual(
          docs.map((d) => d.version),
          [2, 1],
        ),
      {
        sort: { version: -1 },
      },
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = prescriptions(issued(1, '2025-03-01'), issued(2, '2025-04-01'));
    await given(events, events[1]!).then<PrescriptionDoc>(PRESCRIPTION_VERSIONS, 'p1:1', (doc) =>
      assert.equal(doc.effectiveTo, '2025-03-31'),
    );
    await given(events, prescriptions(discontinued(2, '2025-05-01'))).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(prescriptions(issued(1, '2025-03-01')), otherCompany(issued(1, '2025-03-01', 180)));
    await outcome.then<PrescriptionDoc>(PRESCRIPTION_VERSIONS, 'p1:1', (doc) => assert.equal(doc.durationMinutes, 240));
    await outcome.in('t2').then<PrescriptionDoc>(PRESCRIPTION_VERSIONS, 'p1:1', (doc) => assert.equal(doc.durationMinutes, 180));
    await given(otherCompany(issued(1, '2025-03-01')))
      .in('t1')
      .thenAbsent(PRESCRIPTION_VERSIONS, 'p1:1');
  });
});
