// Given authorization events / when a command / then events or a refusal: period, units, one unit per session.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { authorizationDecider } from './authorizationDecider.js';
import { authorizationStatusOn } from './shared/authorizationState.js';
import type { AuthorizationCommand, AuthorizationEvent, AuthorizationTerms } from './authorizationEvents.js';
import type { SessionFact } from '../dialisis/shared/sessionReference.js';

const given = scenario(authorizationDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends AuthorizationCommand['type']>(type: T, data: Extract<AuthorizationCommand, { type: T }>['data']) =>
  ({ type, data, at, actor: 'u1', aggregateId: 'a1', tenantId: 't1' }) as AuthorizationCommand;

const terms: AuthorizationTerms = {
  clientId: 'c1',
  patientId: 'p1',
  code: 'AUT-0001',
  validFrom: '2025-03-01',
  validTo: '2025-03-31',
  sessionsAuthorized: 2,
};
const facts = { patientExists: true, clientActive: true, patientCovered: true };
const issued: AuthorizationEvent = { type: 'AuthorizationIssued', data: { authorizationId: 'a1', ...terms } };
const consumed = (sessionId: string, used: number, date = '2025-03-03'): AuthorizationEvent => ({
  type: 'AuthorizationConsumed',
  data: { sessionId, date, used, remaining: 2 - used },
});
/** An ended session of the authorization's patient on the consumption's date, as the handler found it. */
const sessionOn = (date: string, patientId = 'p1') => ({ exists: true as const, patientId, date, ended: true });
const payer = { heldElsewhere: null, monthCapReached: false };
const consume = (sessionId: string, date = '2025-03-03', session: SessionFact | null = sessionOn(date)) =>
  cmd('ConsumeAuthorization', { sessionId, date, payer, ...(session ? { session } : {}) });
const stateOf = (...events: AuthorizationEvent[]) =>
  events.reduce((s, e) => authorizationDecider.evolve(s, e), authorizationDecider.initialState);

describe('payer authorization decider', () => {
  it('issues for a patient of the company and an active client', () => {
    given()
      .when(cmd('IssueAuthorization', { ...terms, code: ' AUT-0001 ', facts }))
      .then(issued);
    given()
      .when(cmd('IssueAuthorization', { ...terms, facts: { ...facts, patientExists: false } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['patientId']));
    given()
      .when(cmd('IssueAuthorization', { ...terms, facts: { ...facts, clientActive: false } }))
      .thenError('client-inactive');
    given()
      .when(cmd('IssueAuthorization', { ...terms, validTo: '2025-02-28', sessionsAuthorized: 0, facts }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['validTo', 'sessionsAuthorized']));
  });

  it('consumes one unit per session; the same session again is a no-op', () => {
    given(issued).when(consume('s1')).then(consumed('s1', 1));
    given(issued, consumed('s1', 1)).when(consume('s1')).then();
    given(issued, consumed('s1', 1))
      .when(consume('s2', '2025-03-05'))
      .then(consumed('s2', 2, '2025-03-05'));
  });

  it('consumes only for a session of its patient in the company, on the session date', () => {
    const refused = (session: SessionFact | null, date: string, fields: string[]) =>
      given(issued)
        .when(consume('s1', date, session))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), fields));
    refused(null, '2025-03-03', ['sessionId']); // none looked up
    refused({ exists: false }, '2025-03-03', ['sessionId']);
    refused(sessionOn('2025-03-03', 'p2'), '2025-03-03', ['sessionId']);
    refused(sessionOn('2025-03-04'), '2025-03-03', ['date']);
  });

  it('refuses a session when every unit is used (exhausted)', () => {
    given(issued, consumed('s1', 1), consumed('s2', 2)).when(consume('s3')).thenError('authorization-exhausted');
    assert.equal(authorizationStatusOn(stateOf(issued, consumed('s1', 1), consumed('s2', 2)), '2025-03-10'), 'exhausted');
  });

  it('refuses a session dated past the period (expired) or before it (outside period)', () => {
    given(issued).when(consume('s1', '2025-04-01')).thenError('authorization-expired');
    given(issued).when(consume('s1', '2025-02-28')).thenError('authorization-outside-period');
    given(issued)
      .when(consume('s1', '2025-03-31'))
      .then({ ...consumed('s1', 1, '2025-03-31') });
    assert.equal(authorizationStatusOn(stateOf(issued), '2025-04-01'), 'expired');
    assert.equal(authorizationStatusOn(stateOf(issued), '2025-03-31'), 'active');
  });

  it('releases the unit of a session once; a second release, or one never consumed, is refused', () => {
    const released: AuthorizationEvent = {
      type: 'AuthorizationReleased',
      data: { sessionId: 's1', reason: 'Session cancelled', used: 0, remaining: 2 },
    };
    given(issued, consumed('s1', 1))
      .when(cmd('ReleaseAuthorization', { sessionId: 's1', reason: 'Session cancelled' }))
      .then(released);
    given(issued, consumed('s1', 1), released)
      .when(cmd('ReleaseAuthorization', { sessionId: 's1', reason: 'again' }))
      .thenError('authorization-not-consumed');
    given(issued, consumed('s1', 1))
      .when(cmd('ReleaseAuthorization', { sessionId: 's2', reason: 'never consumed' }))
      .thenError('authorization-not-consumed');
    given(issued, consumed('s1', 1), released).when(consume('s1')).then(consumed('s1', 1));
  });

  it('voids with a reason: a voided authorization pays no session', () => {
    const voided: AuthorizationEvent = { type: 'AuthorizationVoided', data: { reason: 'Issued by mistake' } };
    given(issued)
      .when(cmd('VoidAuthorization', { reason: 'Issued by mistake' }))
      .then(voided);
    given(issued, voided).when(consume('s1')).thenError('authorization-voided');
    given(issued, voided)
      .when(cmd('VoidAuthorization', { reason: 'again' }))
      .thenError('authorization-voided');
    given().when(consume('s1')).thenError('not-found');
    assert.equal(authorizationStatusOn(stateOf(issued, voided), '2025-03-02'), 'voided');
  });
});
