// The payer and staff widgets over real HTTP (issue 25): authorizations running out, the month's billing per payer (the
// same totals as the monthly payer report for the same sessions) and staff licences expiring; counts and items change
// with the records, permissions decide who sees them, another company's records are never counted.
import assert from 'node:assert/strict';
import { coveredPatient, openPayer } from './payerSteps.js';
import { expectStatus, startDialisisWorld, type DialisisWorld, type Json } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Widgets: authorizations running out, monthly billing per payer, licences expiring', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  /** The widget's data once every projection caught up with the log. */
  async function widget(token: string, id: string, query = ''): Promise<Json> {
    const { services } = w.server;
    await services.projections.waitFor(await services.events.headPosition());
    return expectStatus(await w.call(token, 'GET', `/widgets/${id}/datos${query}`), 200).body.data as Json;
  }
  const counts = (data: Json): Record<string, number> =>
    Object.fromEntries((data.counts as Json[]).map((c) => [c.key as string, c.value as number]));
  const itemIds = (data: Json): string[] => (data.items as Json[]).map((i) => i.id as string);

  it("bills the month per payer as the monthly payer report does: due when signed, flagged before; 12 months' series", async () => {
    const clientId = await openPayer(w, s, {
      authorizationRequired: false,
      withoutAuthorization: 'flag',
      rate: { amount: '350.25', currency: 'PEN', taxIncluded: true },
    });
    const patient = await coveredPatient(w, s, clientId, 'M-501');
    const signed = await s.treatedSession(patient, { hours: 1 });
    await s.processed(signed.ended);
    await s.endedSession(patient);
    const cancelled = await s.extraSession(patient, { date: w.dateIn(0) });
    expectStatus(await s.post(w.a, `${s.sessionPath(cancelled)}/cancelacion`, { reason: 'Hospitalised' }), 200);
    const month = (signed.recorded.body.date as string).slice(0, 7);
    const payerOf = async (): Promise<Json | undefined> =>
      ((await widget(w.a, 'monthly-billing', `?month=${month}`)).payers as Json[]).find((p) => p.clientId === clientId);

    const reported = async (): Promise<Json> => expectStatus(await s.get(`/clientes/${clientId}/reporte-mensual?mes=${month}`), 200).body;
    const before = (await payerOf())!;
    const unsignedReport = await reported();
    assert.deepEqual([before.sessions, before.totals, before.flaggedTotals], [2, [], [{ currency: 'PEN', sessions: 2, amount: '700.50' }]]);
    assert.deepEqual(
      [before.sessions, before.totals, before.flaggedTotals],
      [unsignedReport.sessions, unsignedReport.totals, unsignedReport.flaggedTotals],
    );
    expectStatus(await s.post(w.nurse.token, `${signed.path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
    const after = (await payerOf())!;
    const report = await reported();
    assert.deepEqual([after.sessions, after.totals, after.flaggedTotals], [report.sessions, report.totals, report.flaggedTotals]);
    assert.deepEqual(after.totals, [{ currency: 'PEN', sessions: 1, amount: '350.25' }]);
    assert.equal(after.clientName, report.clientName);

    const data = await widget(w.a, 'monthly-billing', `?month=${month}`);
    const line = (data.series as Json[]).find((l) => l.key === `${clientId}|PEN`)!;
    assert.equal((line.points as Json[]).length, 12);
    assert.deepEqual((line.points as Json[]).at(-1), { x: month, y: 350.25 });
    assert.equal(counts(data)[`${clientId}|PEN`], 350.25);
    // Another month has none of it; another company never sees it.
    const [y, m] = month.split('-').map(Number) as [number, number];
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    assert.equal(((await widget(w.a, 'monthly-billing', `?month=${next}`)).payers as Json[]).length, 0);
    assert.deepEqual((await widget(w.b, 'monthly-billing', `?month=${month}`)).payers, []);
  });

  it('under a contract requiring authorizations, a session that consumed a unit is due and one without is flagged, as in the report', async () => {
    const clientId = await openPayer(w, s, { authorizationRequired: true, withoutAuthorization: 'flag' });
    const authorized = await coveredPatient(w, s, clientId, 'M-601');
    const body = { patientId: authorized, code: 'AUT-601', validFrom: w.dateIn(-1), validTo: w.dateIn(30), sessionsAuthorized: 10 };
    expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, body), 201);
    const without = await coveredPatient(w, s, clientId, 'M-602');
    const sign = async (patientId: string): Promise<string> => {
      const treated = await s.treatedSession(patientId, { hours: 1 });
      await s.processed(treated.ended);
      expectStatus(await s.post(w.nurse.token, `${treated.path}/firma`, { code: await w.stepUpCode(w.nurse) }), 200);
      return (treated.recorded.body.date as string).slice(0, 7);
    };
    const month = await sign(authorized);
    await sign(without);
    const payer = ((await widget(w.a, 'monthly-billing', `?month=${month}`)).payers as Json[]).find((p) => p.clientId === clientId)!;
    const report = expectStatus(await s.get(`/clientes/${clientId}/reporte-mensual?mes=${month}`), 200).body;
    assert.deepEqual([payer.sessions, payer.totals, payer.flaggedTotals], [report.sessions, report.totals, report.flaggedTotals]);
    assert.deepEqual(
      [payer.totals, payer.flaggedTotals],
      [[{ currency: 'PEN', sessions: 1, amount: '350.00' }], [{ currency: 'PEN', sessions: 1, amount: '350.00' }]],
    );
  });

  it('lists authorizations nearly exhausted or ending within days; voiding one takes it away; days narrows', async () => {
    const clientId = await openPayer(w, s, { authorizationRequired: false, withoutAuthorization: 'flag' });
    const patient = await coveredPatient(w, s, clientId, 'M-502');
    const issue = async (code: string, validTo: string, sessionsAuthorized: number): Promise<string> => {
      const body = { patientId: patient, code, validFrom: w.dateIn(-1), validTo, sessionsAuthorized };
      return expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones`, body), 201).body.id as string;
    };
    const start = counts(await widget(w.a, 'authorizations-running-out'));
    const [start5, start120] = [
      counts(await widget(w.a, 'authorizations-running-out', '?days=5')),
      counts(await widget(w.a, 'authorizations-running-out', '?days=120')),
    ];
    const low = await issue('AUT-LOW', w.dateIn(60), 2);
    const ending = await issue('AUT-END', w.dateIn(10), 30);
    const later = await issue('AUT-LATER', w.dateIn(100), 30);
    const data = await widget(w.a, 'authorizations-running-out');
    assert.deepEqual(counts(data), { ...start, low: start.low! + 1, ending: start.ending! + 1 });
    assert.ok(itemIds(data).includes(low) && itemIds(data).includes(ending) && !itemIds(data).includes(later));
    const lowItem = (data.items as Json[]).find((i) => i.id === low)!;
    assert.deepEqual([lowItem.label, lowItem.severity, lowItem.date], ['Authorization AUT-LOW', 'warning', w.dateIn(60)]);

    assert.equal(counts(await widget(w.a, 'authorizations-running-out', '?days=5')).ending, start5.ending);
    assert.equal(counts(await widget(w.a, 'authorizations-running-out', '?days=120')).ending, start120.ending! + 3);
    expectStatus(await s.post(w.a, `/clientes/${clientId}/autorizaciones/${low}/anulacion`, { reason: 'Wrong patient' }), 200);
    const voided = await widget(w.a, 'authorizations-running-out');
    assert.equal(counts(voided).low, start.low);
    assert.ok(!itemIds(voided).includes(low));
    assert.ok(!itemIds(await widget(w.b, 'authorizations-running-out', '?days=120')).includes(ending));
  });

  it('lists active staff whose licence expires within days or expired; a termination takes one away', async () => {
    const positionId = (await w.createPosition(w.a)).body.id as string;
    const hire = async (token: string, expiresOn: string): Promise<string> =>
      (await w.hire(token, positionId, { licence: { body: 'CEP', number: `CEP ${expiresOn}`, expiresOn } })).body.id as string;
    const start = counts(await widget(w.a, 'licences-expiring'));
    const soon = await hire(w.a, w.dateIn(30));
    const far = await hire(w.a, w.dateIn(200));
    const bPosition = (await w.createPosition(w.b)).body.id as string;
    const elsewhere = (await w.hire(w.b, bPosition, { licence: { body: 'CEP', number: 'CEP B', expiresOn: w.dateIn(20) } })).body
      .id as string;
    const data = await widget(w.a, 'licences-expiring');
    assert.deepEqual(counts(data), { ...start, expiring: start.expiring! + 1 });
    assert.ok(itemIds(data).includes(soon) && !itemIds(data).includes(far) && !itemIds(data).includes(elsewhere));
    assert.equal(counts(await widget(w.a, 'licences-expiring', '?days=365')).expiring, start.expiring! + 2);
    assert.equal(counts(await widget(w.a, 'licences-expiring', '?days=10')).expiring, start.expiring);

    const terminated = { terminationDate: w.dateIn(0), reason: 'resigned' };
    expectStatus(await w.call(w.a, 'POST', `/colaboradores/${soon}/cese`, { json: terminated }), 200);
    const after = await widget(w.a, 'licences-expiring');
    assert.equal(counts(after).expiring, start.expiring);
    assert.ok(!itemIds(after).includes(soon));
  });

  it('the billing role sees the payer widgets; a nurse (no clientes:read) gets 403 and does not see them', async () => {
    const billing = await w.withRoles(['billing']);
    const visible = (await w.call(billing, 'GET', '/widgets/catalogo')).body.items as Json[];
    const ids = visible.map((i) => i.id);
    assert.ok(ids.includes('monthly-billing') && ids.includes('authorizations-running-out') && !ids.includes('licences-expiring'));
    expectStatus(await w.call(billing, 'GET', '/widgets/monthly-billing/datos'), 200);
    const nurseIds = ((await w.call(w.nurse.token, 'GET', '/widgets/catalogo')).body.items as Json[]).map((i) => i.id);
    assert.ok(
      !nurseIds.includes('monthly-billing') && !nurseIds.includes('authorizations-running-out') && nurseIds.includes('licences-expiring'),
    );
    for (const id of ['monthly-billing', 'authorizations-running-out'])
      assert.match(String(expectStatus(await w.call(w.nurse.token, 'GET', `/widgets/${id}/datos`), 403).body.detail), /clientes:read/);
    expectStatus(await w.call(billing, 'GET', '/widgets/monthly-billing/datos?days=3'), 422);
    expectStatus(await w.call(billing, 'GET', '/widgets/monthly-billing/datos?month=2026-13'), 422);
    expectStatus(await w.call(billing, 'GET', '/widgets/licences-expiring/datos'), 403);
  });
});
