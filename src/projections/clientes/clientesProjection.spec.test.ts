// Spec of the Clientes projection: payers with their contracts, and payer authorizations with their units.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { CLIENTS, PAYER_AUTHORIZATIONS, clientesProjection } from './clientesProjection.js';
import type { ClientDoc } from './clientDoc.js';
import type { AuthorizationDoc } from './authorizationDoc.js';

const given = projectionSpec(clientesProjection);
const client = streamOf('t1', 'client', 'c1');
const authorization = streamOf('t1', 'payerAuthorization', 'a1');
const otherCompany = streamOf('t2', 'client', 'c1');
const registered = (legalName = 'Seguro Integral de Salud') => ({
  type: 'ClientRegistered',
  data: {
    clientId: 'c1',
    legalName,
    tradeName: 'SIS',
    payerType: 'public-insurer',
    country: 'PE',
    taxId: { type: 'RUC', number: '20505208626' },
    fiscalAddress: { line1: 'Av. Paseo de la República 1', city: 'Lima', country: 'PE' },
    contacts: [],
  },
});
const issued = {
  type: 'AuthorizationIssued',
  data: {
    authorizationId: 'a1',
    clientId: 'c1',
    patientId: 'p1',
    code: 'AUT-1',
    validFrom: '2025-03-01',
    validTo: '2025-03-31',
    sessionsAuthorized: 12,
  },
};
const consumed = (sessionId: string, used: number) => ({
  type: 'AuthorizationConsumed',
  data: { sessionId, date: '2025-03-03', used, remaining: 12 - used },
});

describe('clientes projection', () => {
  it('registers a payer, signs and terminates a contract, deactivates it', async () => {
    const signed = {
      type: 'ContractSigned',
      data: { contractId: 'k1', number: 'C-1', serviceCode: '90935', validFrom: '2025-01-01', paymentTermsDays: 30 },
    };
    const terminated = { type: 'ContractTerminated', data: { contractId: 'k1', endsOn: '2025-06-30', reason: 'renegotiated' } };
    const deactivated = { type: 'ClientDeactivated', data: { reason: 'no contract' } };
    await given(client(registered(), signed, terminated, deactivated)).then<ClientDoc>(CLIENTS, 'c1', (doc) => {
      assert.deepEqual([doc.status, doc.statusReason, doc.revision], ['inactive', 'no contract', 3]);
      assert.deepEqual(
        doc.contracts.map((c) => [c.contractId, c.terminatedOn]),
        [['k1', '2025-06-30']],
      );
    });
  });

  it('a correction re-sorts the payer; an authorization counts its units and keeps a void reason', async () => {
    const corrected = {
      type: 'ClientCorrected',
      data: { changes: { legalName: 'Ánfora Salud' }, previous: { legalName: 'Seguro Integral de Salud' } },
    };
    await given(client(registered(), corrected)).then<ClientDoc>(CLIENTS, 'c1', (doc) => assert.equal(doc.nameKey, 'anfora salud'));
    const voided = { type: 'AuthorizationVoided', data: { reason: 'wrong patient' } };
    const outcome = given(authorization(issued, consumed('s1', 1), consumed('s2', 2), voided));
    await outcome.then<AuthorizationDoc>(PAYER_AUTHORIZATIONS, 'a1', (doc) => {
      assert.deepEqual([doc.used, doc.remaining, doc.voided, doc.voidReason], [2, 10, true, 'wrong patient']);
    });
    await outcome.thenFind<AuthorizationDoc>(PAYER_AUTHORIZATIONS, { patientId: 'p1' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.code),
        ['AUT-1'],
      ),
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = authorization(issued, consumed('s1', 1));
    await given(events, events[1]!).then<AuthorizationDoc>(PAYER_AUTHORIZATIONS, 'a1', (doc) => assert.equal(doc.used, 1));
    await given(events, client(registered())).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(client(registered()), otherCompany(registered('EsSalud')));
    await outcome.then<ClientDoc>(CLIENTS, 'c1', (doc) => assert.equal(doc.legalName, 'Seguro Integral de Salud'));
    await outcome.in('t2').then<ClientDoc>(CLIENTS, 'c1', (doc) => assert.equal(doc.legalName, 'EsSalud'));
    await given(otherCompany(registered())).in('t1').thenAbsent(CLIENTS, 'c1');
  });
});
