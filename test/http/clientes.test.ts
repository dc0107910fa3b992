// Clientes end to end over real HTTP: payers with a checked and unique tax id, corrections with If-Match, status,
// contracts without overlap and the rate in force, authorizations consumed once per session; tenancy and permissions.
import assert from 'node:assert/strict';
import { clientBody, contractBody, expectStatus, pointers, withClients, type ClientesWorld, type Json } from './clientesWorld.js';
import { dateIn } from './referenceSeeds.js';
import { startDialisisWorld, type DialisisWorld } from './dialisisWorld.js';
import { sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Clientes over HTTP', () => {
  let w: ClientesWorld & DialisisWorld;
  let steps: SessionSteps;
  before(async () => {
    // The Dialisis world: a unit pays only a session whose treatment ended (issue 21 item 17).
    w = withClients(await startDialisisWorld());
    steps = sessionSteps(w);
  });
  after(async () => w?.close());

  const post = (path: string, json: unknown = {}, token = w.a) => w.call(token, 'POST', path, { json });

  it('registers a client and reads it back with ETag and Location; the list finds it', async () => {
    const created = await w.client(w.a, { country: 'pe', taxId: { type: 'RUC', number: '20131257750' } });
    const id = created.body.id as string;
    assert.equal(created.headers.get('location'), `/clientes/${id}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.deepEqual(
      [created.body.country, created.body.taxId, created.body.status],
      ['PE', { type: 'RUC', number: '20131257750' }, 'active'],
    );
    const read = expectStatus(await w.call(w.a, 'GET', `/clientes/${id}`), 200);
    assert.equal(read.headers.get('etag'), 'W/"0"');
    const list = expectStatus(await w.call(w.a, 'GET', '/clientes?estado=active&tipo=social-security&limit=200'), 200);
    assert.ok(list.body.items.some((c: Json) => c.id === id));
  });

  it('refuses a tax id with a wrong check digit (422 naming taxId/number) and a second client with the same tax id (409)', async () => {
    const bad = await post('/clientes', clientBody({ country: 'PE', taxId: { type: 'RUC', number: '20131257751' } }));
    assert.deepEqual(pointers(expectStatus(bad, 422, 'validation-failed')), ['/body/taxId/number']);
    const first = await w.client(w.a);
    expectStatus(await post('/clientes', clientBody({ taxId: first.body.taxId })), 409, 'duplicate-tax-id');
    await w.client(w.b, { taxId: first.body.taxId });
    const racing = clientBody();
    const answers = await Promise.all([0, 1].map(() => post('/clientes', racing)));
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409]);
  });

  it('corrects with If-Match and a reason, deactivates and reactivates, and tells it in the history', async () => {
    const id = (await w.client(w.a)).body.id as string;
    const path = `/clientes/${id}`;
    expectStatus(await w.call(w.a, 'PATCH', path, { json: { tradeName: 'X', reason: 'typo' } }), 428, 'precondition-required');
    const fixed = expectStatus(
      await w.call(w.a, 'PATCH', path, { json: { tradeName: 'EsSalud Lima', reason: 'typo' }, headers: { 'if-match': 'W/"0"' } }),
      200,
    );
    assert.deepEqual([fixed.body.tradeName, fixed.headers.get('etag')], ['EsSalud Lima', 'W/"1"']);
    expectStatus(await w.call(w.a, 'PATCH', path, { json: { tradeName: 'Y', reason: 'x' }, headers: { 'if-match': 'W/"0"' } }), 412);
    const off = expectStatus(await post(`${path}/baja`, { reason: 'Contract ended' }), 200);
    assert.deepEqual([off.body.status, off.body.statusReason], ['inactive', 'Contract ended']);
    expectStatus(await post(`${path}/contratos`, contractBody()), 409, 'client-inactive');
    expectStatus(await post(`${path}/reactivacion`, { reason: 'New tender' }), 200);
    const history = expectStatus(await w.call(w.a, 'GET', `${path}/historial`), 200);
    assert.deepEqual(
      history.body.items.map((e: Json) => e.type),
      ['ClientRegistered', 'ClientCorrected', 'ClientDeactivated', 'ClientReactivated'],
    );
  });

  it('signs contracts, refuses an overlap of the same service, terminates early and answers the rate in force', async () => {
    const id = (await w.client(w.a)).body.id as string;
    const signed = await post(`/clientes/${id}/contratos`, contractBody());
    const first = expectStatus(signed, 201).body;
    assert.equal(signed.headers.get('location'), `/clientes/${id}/contratos/${first.contractId}`);
    assert.deepEqual([first.lastDay, first.status, first.rate.amount], ['2025-12-31', 'signed', '350.00']);
    expectStatus(
      await post(`/clientes/${id}/contratos`, contractBody({ validFrom: '2025-07-01', validTo: undefined })),
      409,
      'contract-overlap',
    );
    const cents = await post(
      `/clientes/${id}/contratos`,
      contractBody({ serviceCode: '90937', rate: { amount: '1.5', currency: 'CLP', taxIncluded: false } }),
    );
    assert.deepEqual(pointers(expectStatus(cents, 422, 'validation-failed')), ['/body/rate/amount']);
    const ended = expectStatus(
      await post(`/clientes/${id}/contratos/${first.contractId}/terminacion`, { endsOn: '2025-06-30', reason: 'Rate renegotiated' }),
      200,
    );
    assert.deepEqual([ended.body.status, ended.body.lastDay], ['terminated', '2025-06-30']);
    const second = expectStatus(
      await post(
        `/clientes/${id}/contratos`,
        contractBody({ validFrom: '2025-07-01', validTo: undefined, rate: { amount: '380.00', currency: 'PEN', taxIncluded: true } }),
      ),
      201,
    ).body;
    const june = expectStatus(await w.call(w.a, 'GET', `/clientes/${id}/tarifa?servicio=90935&fecha=2025-06-30`), 200);
    assert.equal(june.body.contract.contractId, first.contractId);
    const july = expectStatus(await w.call(w.a, 'GET', `/clientes/${id}/tarifa?servicio=90935&fecha=2025-07-01`), 200);
    assert.deepEqual([july.body.contract.contractId, july.body.contract.rate.amount], [second.contractId, '380.00']);
    const before = expectStatus(await w.call(w.a, 'GET', `/clientes/${id}/tarifa?fecha=2024-12-31`), 200);
    assert.equal(before.body.contract, null);
    const list = expectStatus(await w.call(w.a, 'GET', `/clientes/${id}/contratos`), 200);
    assert.deepEqual(
      list.body.items.map((c: Json) => c.contractId),
      [first.contractId, second.contractId],
    );
    expectStatus(await w.call(w.a, 'GET', `/clientes/${id}/contratos/${second.contractId}`), 200);
  });

  it('issues an authorization, consumes one unit per session (idempotent), refuses when exhausted or outside the period', async () => {
    const id = (await w.client(w.a)).body.id as string;
    const day = (n: number) => dateIn(w, n);
    const patientId = await steps.prescribedPatient({ coverages: [{ clientId: id, memberNumber: 'M-1', validFrom: day(-30) }] });
    // Ended before the authorization exists: the process manager finds none to consume, the route consumes by hand.
    const ended: string[] = [];
    for (const n of [2, 3, 4, 11, 0]) ended.push(await steps.endedSession(patientId, day(n))); // one running at a time
    const [s1, s2, s3, late, early] = ended;
    const running = await steps.extraSession(patientId, { date: day(5) });
    const body = { patientId, code: 'AUT-1', validFrom: day(1), validTo: day(10), sessionsAuthorized: 2 };
    const issued = expectStatus(await post(`/clientes/${id}/autorizaciones`, body), 201);
    const auth = `/clientes/${id}/autorizaciones/${issued.body.id}`;
    assert.equal(issued.headers.get('location'), auth);
    assert.deepEqual([issued.body.used, issued.body.remaining], [0, 2]);
    expectStatus(await post(`/clientes/${id}/autorizaciones`, { ...body, code: ' aut-1 ' }), 409, 'duplicate-authorization-code');
    const foreign = await w.patient(w.b);
    const wrong = await post(`/clientes/${id}/autorizaciones`, { ...body, code: 'AUT-2', patientId: foreign });
    assert.deepEqual(pointers(expectStatus(wrong, 422, 'validation-failed')), ['/body/patientId']);
    const consume = (sessionId: string, date: string) => post(`${auth}/consumos`, { sessionId, date });
    expectStatus(await consume(running, day(5)), 409, 'session-not-ended');
    const one = expectStatus(await consume(s1!, day(2)), 200);
    assert.deepEqual([one.body.used, one.body.remaining], [1, 1]);
    const again = expectStatus(await consume(s1!, day(2)), 200);
    assert.equal(again.body.used, 1);
    expectStatus(await consume(late!, day(11)), 409, 'authorization-expired');
    expectStatus(await consume(early!, day(0)), 409, 'authorization-outside-period');
    const two = expectStatus(await consume(s2!, day(3)), 200);
    assert.deepEqual([two.body.remaining, two.body.status], [0, 'exhausted']);
    expectStatus(await consume(s3!, day(4)), 409, 'authorization-exhausted');
    const released = expectStatus(await post(`${auth}/liberaciones`, { sessionId: s2, reason: 'Session cancelled' }), 200);
    assert.deepEqual([released.body.remaining, released.body.status], [1, 'active']);
    const voided = expectStatus(await post(`${auth}/anulacion`, { reason: 'Issued by mistake' }), 200);
    assert.equal(voided.body.status, 'voided');
    const listed = expectStatus(await w.call(w.a, 'GET', `/clientes/${id}/autorizaciones?pacienteId=${patientId}`), 200);
    assert.deepEqual(
      listed.body.items.map((a: Json) => a.id),
      [issued.body.id],
    );
    const history = expectStatus(await w.call(w.a, 'GET', `${auth}/historial`), 200);
    assert.deepEqual(
      history.body.items.map((e: Json) => e.type),
      ['AuthorizationIssued', 'AuthorizationConsumed', 'AuthorizationConsumed', 'AuthorizationReleased', 'AuthorizationVoided'],
    );
  });

  it("answers 404 for another company's client, contract and authorization", async () => {
    const other = (await w.client(w.b)).body.id as string;
    const contract = expectStatus(await post(`/clientes/${other}/contratos`, contractBody(), w.b), 201).body.contractId as string;
    const patientB = await w.patient(w.b, { coverages: [{ clientId: other, memberNumber: 'M-B', validFrom: '2025-01-01' }] });
    const authB = { patientId: patientB, code: 'B-1', validFrom: '2025-03-01', validTo: '2025-03-31', sessionsAuthorized: 2 };
    const auth = expectStatus(await post(`/clientes/${other}/autorizaciones`, authB, w.b), 201).body.id as string;
    const mine = (await w.client(w.a)).body.id as string;
    const path = `/clientes/${other}`;
    for (const [method, p, json, headers] of [
      ['GET', path, undefined, {}],
      ['PATCH', path, { tradeName: 'x', reason: 'x' }, { 'if-match': 'W/"0"' }],
      ['GET', `${path}/historial`, undefined, {}],
      ['POST', `${path}/baja`, { reason: 'x' }, {}],
      ['POST', `${path}/contratos`, contractBody(), {}],
      ['GET', `${path}/contratos/${contract}`, undefined, {}],
      ['POST', `${path}/contratos/${contract}/terminacion`, { endsOn: '2025-05-01', reason: 'x' }, {}],
      ['GET', `${path}/tarifa?fecha=2025-03-01`, undefined, {}],
      ['GET', `${path}/autorizaciones/${auth}`, undefined, {}],
      ['GET', `/clientes/${mine}/autorizaciones/${auth}`, undefined, {}],
      ['POST', `/clientes/${mine}/autorizaciones/${auth}/consumos`, { sessionId: 'S-1', date: '2025-03-03' }, {}],
      ['POST', `${path}/autorizaciones/${auth}/anulacion`, { reason: 'x' }, {}],
      ['GET', `${path}/autorizaciones/${auth}/historial`, undefined, {}],
    ] as const) {
      expectStatus(await w.call(w.a, method, p, { json, headers }), 404, 'not-found');
    }
  });

  it('a receptionist reads but may not write (403); a nurse may not read (403); billing writes', async () => {
    const id = (await w.client(w.a)).body.id as string;
    const receptionist = await w.withRoles(['receptionist']);
    expectStatus(await w.call(receptionist, 'GET', `/clientes/${id}`), 200);
    expectStatus(await w.call(receptionist, 'POST', '/clientes', { json: clientBody() }), 403);
    expectStatus(await w.call(receptionist, 'POST', `/clientes/${id}/contratos`, { json: contractBody() }), 403);
    const nurse = await w.withRoles(['nurse']);
    expectStatus(await w.call(nurse, 'GET', `/clientes/${id}`), 403);
    const billing = await w.withRoles(['billing']);
    expectStatus(await w.call(billing, 'POST', `/clientes/${id}/contratos`, { json: contractBody() }), 201);
  });
});
