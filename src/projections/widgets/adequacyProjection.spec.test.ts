// Spec of the clinical quality widgets' projection: given signed sessions (their judgement), refused consequences and
// no-shows, then the day counters by kind, the month's adequacy counters and buckets, and the alert items.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf, type Fact } from '../runner/projectionSpec.js';
import {
  ADEQUACY_DAYS,
  ADEQUACY_ITEMS,
  ADEQUACY_MONTHS,
  adequacyProjection,
  type DayDoc,
  type ItemDoc,
  type MonthDoc,
} from './adequacyProjection.js';
import { bucketOf, KTV_BUCKETS, URR_BUCKETS } from './adequacyRules.js';

const given = projectionSpec(adequacyProjection);

const scheduled = (sessionId: string, date: string, patientId = 'p1', locationId = 'l1'): Fact => ({
  type: 'SessionScheduled',
  data: { sessionId, patientId, date, shiftId: 'm', locationId, kind: 'planned' },
});
const flag = (code: string, field: string, value: number, threshold: number) => ({ code, field, value, threshold });
const judged = (derived: Record<string, unknown>, flags: Record<string, unknown>[] = []) => ({
  derived,
  flags,
  policyRevision: 1,
  judgedAt: '2025-03-03T13:00:00.000Z',
});
const signed = (j: ReturnType<typeof judged>): Fact => ({
  type: 'SessionSignedByNurse',
  data: { userId: 'n1', staffId: 'st1', signedAt: '2025-03-03T13:00:00.000Z', judged: j },
});
const amended = (j: ReturnType<typeof judged>): Fact => ({
  type: 'SessionAmended',
  data: { block: 'post', changes: {}, previous: {}, reason: 'scale', policyRevision: 1, judged: j },
});
const refused: Fact = {
  type: 'ConsequenceRefused',
  data: { kind: 'dialyzer-use', itemId: 'd1', causeEventId: 'e7', code: 'dialyzer-expired', message: 'expired' },
};
const session = (tenant: string, id: string) => streamOf(tenant, 'dialysisSession', id);
const consequences = (tenant: string, id: string) => streamOf(tenant, 'sessionConsequences', id);

/** At target, spKt/V 1.45 URR 72; below target (Kt/V 1.1 < 1.2, URR 62 < 65) with UF rate 15 > 13 and IDWG 5.2 % of dry weight. */
const good = judged({ spKtV: 1.45, urrPercent: 72, idwgPercentOfDryWeight: 2.1, ufRateMlKgH: 9 });
const poor = judged({ spKtV: 1.1, urrPercent: 62, idwgPercentOfDryWeight: 5.2, ufRateMlKgH: 15 }, [
  flag('uf-rate-above-maximum', 'ufRateMlKgH', 15, 13),
  flag('ktv-below-minimum', 'spKtV', 1.1, 1.2),
  flag('urr-below-minimum', 'urrPercent', 62, 65),
  flag('systolic-low', 'post/bloodPressure/systolic', 85, 90),
]);

describe('widgets-adequacy projection', () => {
  it('buckets values on their lower bounds', () => {
    assert.deepEqual(
      [0.9, 1.0, 1.19, 1.2, 1.99, 2.0, 2.6].map((v) => bucketOf(KTV_BUCKETS, v)),
      [0, 1, 1, 2, 5, 6, 6],
    );
    assert.deepEqual(
      [54.9, 55, 64.9, 65, 80, 91].map((v) => bucketOf(URR_BUCKETS, v)),
      [0, 1, 2, 3, 6, 6],
    );
    assert.deepEqual(KTV_BUCKETS.labels, ['< 1.0', '1.0-1.2', '1.2-1.4', '1.4-1.6', '1.6-1.8', '1.8-2.0', '>= 2.0']);
  });

  it("counts the judgement's alerts per day and kind, the month's measurement per company and location, and items", async () => {
    const outcome = given(
      session('t1', 's1')(scheduled('s1', '2025-03-03'), signed(good)),
      session('t1', 's2')(scheduled('s2', '2025-03-03', 'p2', 'l2'), signed(poor)),
      consequences('t1', 's2')(refused),
      session('t2', 's9')(scheduled('s9', '2025-03-03'), signed(poor)),
    );
    await outcome.then<DayDoc>(ADEQUACY_DAYS, '2025-03-03', (doc) =>
      assert.deepEqual(doc.counts, {
        'uf-rate-above-maximum': 1,
        'ktv-below-minimum': 1,
        'urr-below-minimum': 1,
        'idwg-high': 1,
        'consequence-refused': 1,
      }),
    );
    await outcome.then<MonthDoc>(ADEQUACY_MONTHS, '2025-03', (doc) => {
      assert.deepEqual([doc.measured, doc.atTarget, doc.ktvSum, doc.urrSum, doc.urrCount], [2, 1, 2.55, 134, 2]);
      assert.deepEqual(doc.ktvBuckets, [0, 1, 0, 1, 0, 0, 0]);
      assert.deepEqual(doc.urrBuckets, [0, 0, 1, 0, 1, 0, 0]);
    });
    await outcome.then<MonthDoc>(ADEQUACY_MONTHS, '2025-03@l2', (doc) => assert.deepEqual([doc.measured, doc.atTarget], [1, 0]));
    await outcome.then<ItemDoc>(ADEQUACY_ITEMS, 's2|idwg-high', (doc) =>
      assert.deepEqual([doc.kind, doc.value, doc.threshold, doc.patientId, doc.date], ['idwg-high', 5.2, 4, 'p2', '2025-03-03']),
    );
    await outcome.then<ItemDoc>(ADEQUACY_ITEMS, 's2|uf-rate-above-maximum', (doc) => assert.equal(doc.severity, 1.154));
    await outcome.thenAbsent(ADEQUACY_ITEMS, 's2|systolic-low');
    // Another company's sessions count in its own documents only.
    await outcome.in('t2').then<MonthDoc>(ADEQUACY_MONTHS, '2025-03', (doc) => assert.deepEqual([doc.measured, doc.atTarget], [1, 0]));
    await outcome.thenIdempotent();
  });

  it('an amendment judged again moves the session out of what it counted in and into the new', async () => {
    const outcome = given(session('t1', 's2')(scheduled('s2', '2025-03-31'), signed(poor), amended(good)));
    await outcome.then<DayDoc>(ADEQUACY_DAYS, '2025-03-31', (doc) =>
      assert.deepEqual(doc.counts, { 'uf-rate-above-maximum': 0, 'ktv-below-minimum': 0, 'urr-below-minimum': 0, 'idwg-high': 0 }),
    );
    await outcome.then<MonthDoc>(ADEQUACY_MONTHS, '2025-03', (doc) => {
      assert.deepEqual([doc.measured, doc.atTarget, doc.ktvSum], [1, 1, 1.45]);
      assert.deepEqual(doc.ktvBuckets, [0, 0, 0, 1, 0, 0, 0]);
    });
    await outcome.thenFind<ItemDoc>(ADEQUACY_ITEMS, {}, (docs) => assert.deepEqual(docs, []));
    await outcome.thenIdempotent();
  });

  it('a session without a spKt/V is not measured; a signature without a judgement counts nothing', async () => {
    const unsigned: Fact = { type: 'SessionSignedByNurse', data: { userId: 'n1', staffId: 'st1', signedAt: '2025-03-03T13:00:00.000Z' } };
    const outcome = given(
      session('t1', 's1')(scheduled('s1', '2025-03-03'), signed(judged({ spKtV: null, urrPercent: null }))),
      session('t1', 's2')(scheduled('s2', '2025-03-03'), unsigned),
    );
    await outcome.thenAbsent(ADEQUACY_MONTHS, '2025-03');
  });

  it('the third missed session in a row is an alert, once; an attended session breaks the run', async () => {
    const noShow: Fact = { type: 'SessionMarkedNoShow', data: {} };
    const checkedIn: Fact = { type: 'PatientCheckedIn', data: { checkedInAt: '2025-03-05T08:00:00.000Z' } };
    const outcome = given(
      session('t1', 'a')(scheduled('a', '2025-03-03'), noShow),
      session('t1', 'b')(scheduled('b', '2025-03-05'), checkedIn),
      session('t1', 'c')(scheduled('c', '2025-03-07'), noShow),
      session('t1', 'd')(scheduled('d', '2025-03-10'), noShow),
      session('t1', 'e')(scheduled('e', '2025-03-12'), noShow),
      session('t1', 'f')(scheduled('f', '2025-03-14'), noShow),
    );
    await outcome.thenFind<ItemDoc>(ADEQUACY_ITEMS, {}, (docs) =>
      assert.deepEqual(
        docs.map((d) => [d.id, d.date]),
        [['e|missed-sessions', '2025-03-12']],
      ),
    );
    await outcome.then<DayDoc>(ADEQUACY_DAYS, '2025-03-12', (doc) => assert.deepEqual(doc.counts, { 'missed-sessions': 1 }));
    await outcome.thenIdempotent();
  });
});
