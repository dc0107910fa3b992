// The clinical quality widgets over real HTTP (issue 25): open alerts by kind, the month's adequacy and the fluid outliers
// after signed sessions with known values, compared with what /dialisis/adecuacion and /dialisis/alertas answer for the
// same sessions; a nurse sees them, a receptionist gets 403 and no entry in the catalog, company B never sees A's sessions.
import assert from 'node:assert/strict';
import { expectStatus, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { postBlock, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

const CLINICAL = ['open-alerts', 'monthly-adequacy', 'fluid-outliers'];

describe('Widgets: clinical quality (open alerts, monthly adequacy, fluid outliers) over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  /** The two signed sessions of one patient as GET answers them (date, clinical values judged at signing). */
  let signed: Json[];
  let patientId: string;
  let seen: string;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
    patientId = await s.prescribedPatient();
    // 3 h, BUN 70 -> 25 (URR 64.3 % < 65), 3 L removed (UF rate about 16 > 13 mL/kg/h).
    const first = await signedSession(postBlock());
    // Right after: 3 kg gained since the first's net post-weight 62.5 (IDWG 4.8 % of 62.5 > 4 %), BUN 70 -> 20, 1.5 L removed.
    const second = await signedSession(postBlock({ scaleWeightKg: 64.5, machineUfMl: 1500, postBunMgDl: 20 }));
    signed = [first, second];
  });
  after(async () => w?.close());

  async function signedSession(post: Json): Promise<Json> {
    const { path } = await s.treatedSession(patientId, { hours: 3, post });
    const answer = expectStatus(await s.post(w.nurse.token, `${path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    seen = `minPosition=${encodeURIComponent(answer.headers.get('x-event-position')!)}`;
    return expectStatus(await s.get(path), 200).body;
  }

  const datos = (id: string, query = '', token = w.nurse.token): Promise<Answer> =>
    w.call(token, 'GET', `/widgets/${id}/datos?${seen}${query ? `&${query}` : ''}`);
  const clinical = (session: Json) => session.clinical as { derived: Json; flags: Json[] };
  const derived = (session: Json, name: string): number => clinical(session).derived[name] as number;
  const flagged = (session: Json, code: string): boolean => clinical(session).flags.some((f) => f.code === code);
  const countOf = (data: Json, key: string, field = 'counts'): number =>
    (data[field] as Json[]).find((c) => c.key === key)!.value as number;

  it('the signed sessions carry the values the scenario is built on', () => {
    const [first, second] = signed as [Json, Json];
    assert.deepEqual([derived(first, 'urrPercent'), flagged(first, 'urr-below-minimum')], [64.3, true]);
    assert.ok(flagged(first, 'uf-rate-above-maximum') && derived(first, 'ufRateMlKgH') > 13);
    assert.ok(!flagged(second, 'uf-rate-above-maximum') && !flagged(second, 'urr-below-minimum') && !flagged(second, 'ktv-below-minimum'));
    assert.equal(derived(second, 'idwgPercentOfDryWeight'), 4.8);
  });

  it('monthly adequacy: share at target, spKt/V and URR buckets, means as /dialisis/adecuacion answers them, the 12-month trend', async () => {
    // The clock moves about 7 h through the scenario: near midnight at a month's end the second session falls in the next.
    const month = (signed[0]!.date as string).slice(0, 7);
    const inMonth = signed.filter((x) => (x.date as string).startsWith(month));
    const answer = expectStatus(await datos('monthly-adequacy', `month=${month}`), 200).body;
    const data = answer.data as Json;
    const atTarget = inMonth.filter((x) => !['ktv-below-minimum', 'stdktv-below-minimum', 'urr-below-minimum'].some((c) => flagged(x, c)));
    const expectedShare = Math.round((atTarget.length / inMonth.length) * 1000) / 10;
    assert.deepEqual(
      [data.month, data.measured, data.atTarget, data.shareAtTarget],
      [month, inMonth.length, atTarget.length, expectedShare],
    );
    const histogram = (name: string, from: number, width: number) => {
      const counts = [0, 0, 0, 0, 0, 0, 0];
      for (const x of inMonth) counts[Math.min(6, Math.max(0, Math.floor((derived(x, name) - from) / width + 1e-9) + 1))]!++;
      return counts;
    };
    assert.deepEqual(
      (data.spKtVDistribution as Json[]).map((b) => b.value),
      histogram('spKtV', 1.0, 0.2),
    );
    // URR 64.3 in 60-65, 71.4 in 70-75.
    assert.deepEqual(
      (data.urrDistribution as Json[]).map((b) => b.value),
      histogram('urrPercent', 55, 5),
    );
    assert.equal((data.urrDistribution as Json[])[2]!.label, '60-65 %');
    assert.equal(derived(signed[0]!, 'urrPercent'), 64.3);

    const report = expectStatus(await s.get(`/dialisis/adecuacion?month=${month}&patientId=${patientId}&${seen}`), 200).body;
    const row = (report.patients as Json[])[0]!;
    assert.deepEqual([data.spKtVMean, data.urrPercentMean], [row.spKtVMean, row.urrPercentMean]);

    const series = data.series as { key: string; points: { x: string; y: number | null }[] }[];
    const share = series.find((x) => x.key === 'share-at-target')!.points;
    assert.equal(share.length, 12);
    assert.deepEqual(share.at(-1), { x: month, y: expectedShare });
    assert.equal(share[0]!.y, null);
    // The month after the last session's: nothing measured yet, this month in the trend.
    const [year, m] = (signed.at(-1)!.date as string).slice(0, 7).split('-').map(Number) as [number, number];
    const next = new Date(Date.UTC(year, m, 1)).toISOString().slice(0, 7);
    const later = expectStatus(await datos('monthly-adequacy', `month=${next}`), 200).body.data as Json;
    assert.deepEqual([later.measured, later.shareAtTarget], [0, null]);
    const trend = (later.series as typeof series).find((x) => x.key === 'spktv-mean')!.points;
    assert.deepEqual(
      [trend.find((p) => p.x === month), trend.at(-1)],
      [
        { x: month, y: data.spKtVMean },
        { x: next, y: null },
      ],
    );
    // One location: the sessions' own; another location has none of them.
    const here = expectStatus(await datos('monthly-adequacy', `month=${month}&locationId=${signed[0]!.locationId as string}`), 200).body;
    assert.equal((here.data as Json).measured, inMonth.length);
    const elsewhere = await datos('monthly-adequacy', `month=${month}&locationId=${w.stationB.locationId}`);
    assert.equal((expectStatus(elsewhere, 200).body.data as Json).measured, 0);
    assert.ok(/^[0-9]+$/.test((answer.asOf as Json).position as string));
  });

  it('open alerts by kind over the last days match /dialisis/alertas for the same days, the latest listed', async () => {
    const answer = expectStatus(await datos('open-alerts', 'days=7&limit=2'), 200).body;
    const data = answer.data as Json;
    const listed = expectStatus(await s.get(`/dialisis/alertas?from=${data.from as string}&to=${data.to as string}&${seen}`), 200).body;
    const kinds = new Map<string, number>();
    for (const alert of listed.items as Json[]) kinds.set(alert.kind as string, (kinds.get(alert.kind as string) ?? 0) + 1);
    for (const c of data.counts as Json[]) assert.equal(c.value, kinds.get(c.key as string) ?? 0, c.key as string);
    assert.deepEqual([countOf(data, 'uf-rate-above-maximum'), countOf(data, 'urr-below-minimum'), countOf(data, 'idwg-high')], [1, 1, 1]);
    assert.equal(data.total, 3);
    assert.equal((data.items as Json[]).length, 2);
    assert.ok((data.items as Json[]).every((i) => typeof i.label === 'string' && i.label !== patientId));
    // days: the range ends today and spans that many days.
    const one = expectStatus(await datos('open-alerts', 'days=1'), 200).body.data as Json;
    assert.equal(one.from, one.to);
    const day = (Date.parse(data.to as string) - Date.parse(data.from as string)) / 86_400_000;
    assert.equal(day, 6);
  });

  it('fluid outliers: counts and the worst items with value and threshold', async () => {
    const data = expectStatus(await datos('fluid-outliers'), 200).body.data as Json;
    assert.deepEqual([countOf(data, 'idwg-high'), countOf(data, 'uf-rate-above-maximum')], [1, 1]);
    const outliers = data.outliers as Json[];
    const [first, second] = signed as [Json, Json];
    const uf = { kind: 'uf-rate-above-maximum', sessionId: first.id, value: derived(first, 'ufRateMlKgH'), threshold: 13 };
    const idwg = { kind: 'idwg-high', sessionId: second.id, value: 4.8, threshold: 4 };
    const shown = outliers.map(({ kind, sessionId, value, threshold }) => ({ kind, sessionId, value, threshold }));
    // The worst first: IDWG 4.8 / 4 = 1.2 times its threshold, the UF rate about 15.5 / 13 = 1.19.
    assert.ok(uf.value / 13 < 1.2);
    assert.deepEqual(shown, [idwg, uf]);
    assert.deepEqual(
      outliers.map((o) => [o.patientId, o.date]),
      [
        [patientId, second.date],
        [patientId, first.date],
      ],
    );
    const worst = expectStatus(await datos('fluid-outliers', 'limit=1'), 200).body.data as Json;
    assert.equal((worst.items as Json[]).length, 1);
  });

  it('a receptionist gets 403 and no clinical widget in the catalog; a nurse sees them; a parameter a widget does not take is 422', async () => {
    const receptionist = await w.withRoles(['receptionist']);
    for (const id of CLINICAL) expectStatus(await datos(id, '', receptionist), 403);
    const theirs = expectStatus(await w.call(receptionist, 'GET', '/widgets/catalogo'), 200).body;
    assert.ok((theirs.items as Json[]).every((i) => !CLINICAL.includes(i.id as string)));
    const nurses = expectStatus(await w.call(w.nurse.token, 'GET', '/widgets/catalogo'), 200).body;
    const ids = (nurses.items as Json[]).map((i) => i.id as string);
    for (const id of CLINICAL) assert.ok(ids.includes(id), id);
    expectStatus(await datos('open-alerts', 'month=2025-03'), 422);
  });

  it("another company never counts company A's sessions", async () => {
    const month = (signed[0]!.date as string).slice(0, 7);
    const adequacy = expectStatus(await datos('monthly-adequacy', `month=${month}`, w.b), 200).body.data as Json;
    assert.equal(adequacy.measured, 0);
    const alerts = expectStatus(await datos('open-alerts', '', w.b), 200).body.data as Json;
    assert.deepEqual([alerts.total, (alerts.items as Json[]).length], [0, 0]);
    const fluid = expectStatus(await datos('fluid-outliers', '', w.b), 200).body.data as Json;
    assert.deepEqual([countOf(fluid, 'idwg-high'), (fluid.outliers as Json[]).length], [0, 0]);
  });
  it('answers the same data until a patient correction or a signed session changes it, in the writer’s next read', async () => {
    const read = async (id: string): Promise<Json> => expectStatus(await datos(id), 200).body.data as Json;
    const first = await read('fluid-outliers');
    assert.deepEqual(await read('fluid-outliers'), first);
    assert.ok((first.items as Json[]).length > 0);

    // The patient's corrected name: the rows name her anew (the projection's documents did not change).
    const etag = expectStatus(await s.get(`/pacientes/${patientId}`), 200).headers.get('etag')!;
    const correction = { givenNames: 'Renombrada', reason: 'typo in the admission form' };
    const corrected = expectStatus(
      await w.call(w.a, 'PATCH', `/pacientes/${patientId}`, { json: correction, headers: { 'if-match': etag } }),
      200,
    );
    seen = `minPosition=${encodeURIComponent(corrected.headers.get('x-event-position')!)}`;
    const renamed = await read('fluid-outliers');
    assert.ok(
      (renamed.items as Json[]).every((i) => (i.label as string).endsWith(', Renombrada')),
      JSON.stringify(renamed.items),
    );

    // One more signed session above the UF rate maximum: counted in the signer's next read.
    const before = countOf(renamed, 'uf-rate-above-maximum');
    await signedSession(postBlock());
    assert.equal(countOf(await read('fluid-outliers'), 'uf-rate-above-maximum'), before + 1);
  });
  it("counts its days in the company's time zone as corrected, from the next read on", async () => {
    const setZone = async (timeZone: string): Promise<string> => {
      const etag = expectStatus(await w.call(w.a, 'GET', '/empresas/actual'), 200).headers.get('etag')!;
      const json = { timeZone, reason: 'the clinic moved' };
      const changed = expectStatus(await w.call(w.a, 'PATCH', '/empresas/actual', { json, headers: { 'if-match': etag } }), 200);
      return `minPosition=${encodeURIComponent(changed.headers.get('x-event-position')!)}`;
    };
    // UTC+14 and UTC-11: 25 hours apart, so never the same calendar day.
    seen = await setZone('Pacific/Kiritimati');
    const east = expectStatus(await datos('fluid-outliers'), 200).body.data as Json;
    assert.deepEqual(expectStatus(await datos('fluid-outliers'), 200).body.data, east);
    seen = await setZone('Pacific/Pago_Pago');
    const west = expectStatus(await datos('fluid-outliers'), 200).body.data as Json;
    const dayBefore = new Date(Date.parse(`${east.to as string}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    assert.equal(west.to, dayBefore);
  });
});
