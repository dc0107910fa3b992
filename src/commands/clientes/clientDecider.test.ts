// Given client events / when a command / then events or a refusal: tax id, status, contracts and the rate in force.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { clientDecider } from './clientDecider.js';
import type { ClientCommand, ClientEvent, ClientFields, ContractTerms } from './clientEvents.js';
import { amountTimes, contractInForceOn } from './shared/contractRules.js';

const given = scenario(clientDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends ClientCommand['type']>(type: T, data: Extract<ClientCommand, { type: T }>['data']): ClientCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'c1', tenantId: 't1' }) as ClientCommand;

const fields: ClientFields = {
  legalName: 'Seguro Social de Salud',
  tradeName: 'EsSalud',
  payerType: 'social-security',
  country: 'PE',
  taxId: { type: 'RUC', number: '20131257750' },
  fiscalAddress: { line1: 'Av. Domingo Cueto 120', city: 'Lima' },
  contacts: [{ name: 'Mesa de partes', email: 'partes@essalud.example' }],
};
const registered: ClientEvent = { type: 'ClientRegistered', data: { clientId: 'c1', ...fields } };
const terms = (overrides: Partial<ContractTerms> = {}): ContractTerms => ({
  number: 'C-2025-01',
  serviceCode: '90935',
  validFrom: '2025-01-01',
  validTo: '2025-12-31',
  rate: { amount: '350.00', currency: 'PEN', taxIncluded: true },
  includes: ['dialyzer', 'bloodlines', 'epo-iron'],
  authorizationRequired: true,
  withoutAuthorization: 'block',
  sessionsPerMonthCap: 13,
  paymentTermsDays: 60,
  ...overrides,
});
const signed = (contractId: string, overrides: Partial<ContractTerms> = {}): ClientEvent => ({
  type: 'ContractSigned',
  data: { contractId, ...terms(overrides) },
});

describe('client decider', () => {
  it('registers a payer with its tax id in canonical form', () => {
    const events = given()
      .when(cmd('RegisterClient', { ...fields, country: 'pe', taxId: { type: 'ruc', number: '20131257750 ' } }))
      .events();
    assert.deepEqual(events, [registered]);
  });

  it('refuses a tax id whose check digit is wrong, naming taxId/number', () => {
    given()
      .when(cmd('RegisterClient', { ...fields, taxId: { type: 'RUC', number: '20131257751' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['taxId/number']));
    given()
      .when(cmd('RegisterClient', { ...fields, taxId: { type: 'NIT', number: '800197268-4' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['taxId/type']));
  });

  it('re-checks the kept tax id when a correction changes the country', () => {
    given(registered)
      .when(cmd('CorrectClient', { country: 'CO' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['taxId/type']));
    given(registered)
      .when(cmd('CorrectClient', { tradeName: ' EsSalud Lima ', billingEmail: 'Facturas@EsSalud.example' }))
      .then({
        type: 'ClientCorrected',
        data: {
          changes: { tradeName: 'EsSalud Lima', billingEmail: 'facturas@essalud.example' },
          previous: { tradeName: 'EsSalud', billingEmail: null },
        },
      });
    given(registered)
      .when(cmd('CorrectClient', { tradeName: 'EsSalud' }))
      .then();
  });

  it('deactivates and reactivates with a reason; an inactive client signs no contract', () => {
    const off: ClientEvent = { type: 'ClientDeactivated', data: { reason: 'Contract ended' } };
    given(registered)
      .when(cmd('DeactivateClient', { reason: ' Contract ended ' }))
      .then(off);
    given(registered, off)
      .when(cmd('DeactivateClient', { reason: 'again' }))
      .thenError('client-inactive');
    given(registered, off)
      .when(cmd('SignContract', { contractId: 'k1', ...terms() }))
      .thenError('client-inactive');
    given(registered, off)
      .when(cmd('ReactivateClient', { reason: 'New tender' }))
      .then({ type: 'ClientReactivated', data: { reason: 'New tender' } });
    given(registered)
      .when(cmd('ReactivateClient', { reason: 'x' }))
      .thenError('client-active');
  });

  it('signs a contract; another of the same service overlapping its validity is refused', () => {
    given(registered)
      .when(cmd('SignContract', { contractId: 'k1', ...terms() }))
      .then(signed('k1'));
    given(registered, signed('k1'))
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ number: 'C-2', validFrom: '2025-12-01', validTo: undefined }) }))
      .thenError('contract-overlap', (e) => assert.equal(e.details?.existingContractId, 'k1'));
    given(registered, signed('k1', { validTo: undefined }))
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ number: 'C-2', validFrom: '2030-01-01', validTo: '2030-12-31' }) }))
      .thenError('contract-overlap');
    // Another service, or the next period, is fine.
    given(registered, signed('k1'))
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ number: 'C-2', serviceCode: '90937' }) }))
      .events();
    given(registered, signed('k1'))
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ number: 'C-2', validFrom: '2026-01-01', validTo: undefined }) }))
      .events();
    given(registered, signed('k1'))
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ validFrom: '2026-01-01', validTo: undefined, number: 'c-2025-01' }) }))
      .thenError('duplicate-contract-number');
  });

  it('refuses a rate with more decimals than its currency, an unknown currency and a period ending before it starts', () => {
    given(registered)
      .when(cmd('SignContract', { contractId: 'k1', ...terms({ rate: { amount: '35000.5', currency: 'CLP', taxIncluded: false } }) }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['rate/amount']));
    given(registered)
      .when(
        cmd('SignContract', {
          contractId: 'k1',
          ...terms({ validTo: '2024-12-31', rate: { amount: '1', currency: 'XYZ', taxIncluded: false } }),
        }),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['validTo', 'rate/currency']));
  });

  it('terminates a contract early: the service is free again from the next day', () => {
    const ended: ClientEvent = { type: 'ContractTerminated', data: { contractId: 'k1', endsOn: '2025-06-30', reason: 'Tender lost' } };
    given(registered, signed('k1'))
      .when(cmd('TerminateContract', { contractId: 'k1', endsOn: '2025-06-30', reason: 'Tender lost' }))
      .then(ended);
    given(registered, signed('k1'))
      .when(cmd('TerminateContract', { contractId: 'k1', endsOn: '2025-12-31', reason: 'x' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['endsOn']));
    given(registered, signed('k1'), ended)
      .when(cmd('TerminateContract', { contractId: 'k1', endsOn: '2025-05-01', reason: 'x' }))
      .thenError('contract-terminated');
    given(registered, signed('k1'))
      .when(cmd('TerminateContract', { contractId: 'nope', endsOn: '2025-05-01', reason: 'x' }))
      .thenError('not-found');
    given(registered, signed('k1'), ended)
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ number: 'C-2', validFrom: '2025-07-01' }) }))
      .events();
    given(registered, signed('k1'), ended)
      .when(cmd('SignContract', { contractId: 'k2', ...terms({ number: 'C-2', validFrom: '2025-06-30' }) }))
      .thenError('contract-overlap');
  });

  it('answers the rate in force on a date: the contract of that service whose validity holds the date', () => {
    const state = [
      registered,
      signed('k1', { validTo: '2025-06-30' }),
      signed('k2', {
        number: 'C-2',
        validFrom: '2025-07-01',
        validTo: undefined,
        rate: { amount: '380.00', currency: 'PEN', taxIncluded: true },
      }),
    ].reduce((s, e) => clientDecider.evolve(s, e), clientDecider.initialState);
    assert.equal(contractInForceOn(state.contracts, '2025-06-30', '90935')?.contractId, 'k1');
    assert.equal(contractInForceOn(state.contracts, '2025-07-01', '90935')?.rate.amount, '380.00');
    assert.equal(contractInForceOn(state.contracts, '2024-12-31', '90935'), null);
    assert.equal(contractInForceOn(state.contracts, '2025-03-01', '90937'), null);
    assert.equal(contractInForceOn(state.contracts, '2025-03-01')?.contractId, 'k1');
  });

  it('multiplies a decimal rate exactly', () => {
    assert.equal(amountTimes('350.10', 13), '4551.30');
    assert.equal(amountTimes('0.05', 3), '0.15');
    assert.equal(amountTimes('35000', 12), '420000');
  });
});
