// What the daily record calls (the lead's session hook): the authorization of a patient on a date, found through the
// patient's coverage, consumed once per session, refused with a reason; and the contract in force, from the stream.
import assert from 'node:assert/strict';
import { contractInForce } from '../../src/commands/clientes/clientWrites.js';
import { authorizationFor, consumeAuthorization } from '../../src/commands/clientes/payerLookupWrites.js';
import { contractBody, expectStatus, startClientesWorld, type ClientesWorld } from './clientesWorld.js';

describe('Clientes for the daily record: authorizationFor, consumeAuthorization, contractInForce', () => {
  let w: ClientesWorld;
  before(async () => {
    w = await startClientesWorld();
  });
  after(async () => w?.close());

  it('finds the authorization through the coverage, consumes one unit per session, then says why it cannot', async () => {
    const { services, admin } = w.server;
    const tenantId = admin.companyId;
    const clientId = (await w.client(w.a)).body.id as string;
    const coverage = { clientId, memberNumber: 'M-1', validFrom: '2025-01-01' };
    const patientId = await w.patient(w.a, { coverages: [coverage] });
    const uncovered = await w.patient(w.a);
    const body = { patientId, code: 'AUT-L', validFrom: '2025-03-01', validTo: '2025-03-31', sessionsAuthorized: 1 };
    const issued = expectStatus(await w.call(w.a, 'POST', `/clientes/${clientId}/autorizaciones`, { json: body }), 201);
    const ctx = { tenantId, actor: 'system', sessionId: null, correlationId: 'lookup-test', ip: null, userAgent: null };

    const found = await authorizationFor(services, tenantId, patientId, '2025-03-03');
    assert.equal(found.authorization?.authorizationId, issued.body.id);
    assert.deepEqual(await authorizationFor(services, tenantId, uncovered, '2025-03-03'), {
      authorization: null,
      clientId: null,
      reason: 'no-coverage',
    });

    const first = await consumeAuthorization(services, ctx, { patientId, date: '2025-03-03', sessionId: 'S-1' });
    assert.deepEqual(first, { outcome: 'consumed', clientId, authorizationId: issued.body.id, remaining: 0 });
    const replay = await consumeAuthorization(services, ctx, { patientId, clientId, date: '2025-03-03', sessionId: 'S-1' });
    assert.equal(replay.outcome, 'already-consumed');
    const next = await consumeAuthorization(services, ctx, { patientId, date: '2025-03-05', sessionId: 'S-2' });
    assert.deepEqual(next, { outcome: 'refused', clientId, reason: 'authorization-exhausted' });
    const late = await authorizationFor(services, tenantId, patientId, '2025-04-02');
    assert.deepEqual([late.authorization, late.reason], [null, 'authorization-expired']);
  });

  it('answers the contract in force on a date from the stream, of the service when given', async () => {
    const { services, admin } = w.server;
    const clientId = (await w.client(w.a)).body.id as string;
    const signed = expectStatus(await w.call(w.a, 'POST', `/clientes/${clientId}/contratos`, { json: contractBody() }), 201);
    const inForce = await contractInForce(services, admin.companyId, clientId, '2025-05-01', '90935');
    assert.deepEqual(
      [inForce?.contractId, inForce?.rate.amount, inForce?.withoutAuthorization],
      [signed.body.contractId, '350.00', 'block'],
    );
    assert.equal(await contractInForce(services, admin.companyId, clientId, '2026-01-01'), null);
    assert.equal(await contractInForce(services, 'otherTenant', clientId, '2025-05-01'), null);
  });
});
