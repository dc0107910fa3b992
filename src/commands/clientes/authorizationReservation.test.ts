// Issue 21 item 17, given/when/then: a session's start reserves a unit (two starts cannot both take the last one), the
// end consumes that very unit, a release gives it back; a manual consumption names an ended session, is paid once
// across the patient's authorizations and keeps the month's cap; an authorization needs the patient's coverage.
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import { authorizationDecider } from './authorizationDecider.js';
import { remainingOf } from './shared/authorizationState.js';
import type { AuthorizationCommand, AuthorizationEvent, PayerFacts } from './authorizationEvents.js';

const given = scenario(authorizationDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends AuthorizationCommand['type']>(type: T, data: Extract<AuthorizationCommand, { type: T }>['data']) =>
  ({ type, data, at, actor: 'u1', aggregateId: 'a1', tenantId: 't1' }) as AuthorizationCommand;
const terms = { clientId: 'c1', patientId: 'p1', code: 'AUT-1', validFrom: '2025-03-01', validTo: '2025-03-31', sessionsAuthorized: 1 };
const issued: AuthorizationEvent = { type: 'AuthorizationIssued', data: { authorizationId: 'a1', ...terms } };
const free: PayerFacts = { heldElsewhere: null, monthCapReached: false };
const reserve = (sessionId: string, payer = free) => cmd('ReserveAuthorization', { sessionId, date: '2025-03-03', payer });
const reserved = (sessionId: string): AuthorizationEvent => ({
  type: 'AuthorizationReserved',
  data: { sessionId, date: '2025-03-03', reserved: 1, remaining: 0 },
});
const session = (ended: boolean) => ({ exists: true as const, patientId: 'p1', date: '2025-03-03', ended });
const consume = (sessionId: string, ended = true, payer = free) =>
  cmd('ConsumeAuthorization', { sessionId, date: '2025-03-03', session: session(ended), payer });
const consumed = (sessionId: string): AuthorizationEvent => ({
  type: 'AuthorizationConsumed',
  data: { sessionId, date: '2025-03-03', used: 1, remaining: 0 },
});
const stateOf = (...events: AuthorizationEvent[]) =>
  events.reduce((s, e) => authorizationDecider.evolve(s, e), authorizationDecider.initialState);

describe('payer authorization reservations (issue 21 item 17)', () => {
  it('reserves the last unit for one started session only; a retried start reserves nothing more', () => {
    given(issued).when(reserve('s1')).then(reserved('s1'));
    given(issued, reserved('s1')).when(reserve('s2')).thenError('authorization-exhausted');
    given(issued, reserved('s1')).when(reserve('s1')).then();
    assert.equal(remainingOf(stateOf(issued, reserved('s1'))), 0);
  });

  it('the end consumes the reserved unit; no other session may take it meanwhile', () => {
    given(issued, reserved('s1')).when(consume('s1')).then(consumed('s1'));
    given(issued, reserved('s1')).when(consume('s2')).thenError('authorization-exhausted');
    given(issued, reserved('s1'), consumed('s1')).when(reserve('s2')).thenError('authorization-exhausted');
  });

  it('a released reservation gives the unit back to the next session', () => {
    const released: AuthorizationEvent = {
      type: 'AuthorizationReleased',
      data: { sessionId: 's1', reason: 'session-start-refused', used: 0, remaining: 1 },
    };
    given(issued, reserved('s1'))
      .when(cmd('ReleaseAuthorization', { sessionId: 's1', reason: 'session-start-refused' }))
      .then(released);
    given(issued, reserved('s1'), released).when(reserve('s2')).then(reserved('s2'));
  });

  it('a manual consumption names a session whose treatment ended', () => {
    given(issued).when(consume('s1', false)).thenError('session-not-ended');
    given(issued).when(consume('s1', true)).then(consumed('s1'));
  });

  it("one session consumes at most one unit across the patient's authorizations, within the month's cap", () => {
    given(issued)
      .when(consume('s1', true, { heldElsewhere: 'a2', monthCapReached: false }))
      .thenError('session-already-paid');
    given(issued)
      .when(consume('s1', true, { heldElsewhere: null, monthCapReached: true }))
      .thenError('monthly-cap-reached');
    given(issued)
      .when(reserve('s1', { heldElsewhere: null, monthCapReached: true }))
      .thenError('monthly-cap-reached');
  });

  it('is issued only for a patient the client covers during the period', () => {
    const facts = { patientExists: true, clientActive: true, patientCovered: false };
    given()
      .when(cmd('IssueAuthorization', { ...terms, facts }))
      .thenError('patient-not-covered');
  });
});
