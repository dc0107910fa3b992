// Spec of the payer and staff widgets' projection: authorizations watched by units and last day, licences by expiry
// while the staff member is active, and the month's billing per payer moved by each session's membership.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import {
  PAYERS_AUTHORIZATION_DAYS,
  PAYERS_AUTHORIZATIONS,
  PAYERS_BILLING,
  PAYERS_LICENCES,
  PAYERS_SESSIONS,
  payerStaffProjection,
} from './payerStaffProjection.js';
import type { AuthorizationDayDoc, AuthorizationWatchDoc, LicenceWatchDoc } from './payerWatchDocs.js';
import type { BilledSessionDoc, BillingMonthDoc } from './payerBillingDocs.js';

const given = projectionSpec(payerStaffProjection);
const authorization = streamOf('t1', 'payerAuthorization', 'a1');
const staff = streamOf('t1', 'staff', 'st1');
const client = streamOf('t1', 'client', 'c1');
const patient = streamOf('t1', 'patient', 'p1');
const session = (id: string) => streamOf('t1', 'dialysisSession', id);
const otherSession = streamOf('t2', 'dialysisSession', 's1');

const issued = (sessionsAuthorized = 12) => ({
  type: 'AuthorizationIssued',
  data: {
    authorizationId: 'a1',
    clientId: 'c1',
    patientId: 'p1',
    code: 'AUT-1',
    validFrom: '2025-03-01',
    validTo: '2025-03-31',
    sessionsAuthorized,
  },
});
const consumed = (sessionId: string, used: number, authorized = 12) => ({
  type: 'AuthorizationConsumed',
  data: { sessionId, date: '2025-03-03', used, remaining: authorized - used },
});
const hired = {
  type: 'StaffHired',
  data: { staffId: 'st1', givenNames: 'Ana', familyNames: 'Ruiz', positionId: 'j1', status: 'active', serology: [], hbvVaccination: [] },
};
const licence = (expiresOn: string) => ({ type: 'StaffLicenseRegistered', data: { body: 'CEP', number: '123', expiresOn } });
const registered = {
  type: 'ClientRegistered',
  data: {
    clientId: 'c1',
    legalName: 'SIS',
    payerType: 'public-insurer',
    country: 'PE',
    taxId: { type: 'RUC', number: '20505208626' },
    contacts: [],
  },
};
const contract = (authorizationRequired: boolean) => ({
  type: 'ContractSigned',
  data: {
    contractId: 'k1',
    number: 'C-1',
    serviceCode: '90935',
    validFrom: '2025-01-01',
    rate: { amount: '350.50', currency: 'PEN' },
    authorizationRequired,
    paymentTermsDays: 30,
  },
});
const patientRegistered = {
  type: 'PatientRegistered',
  data: {
    patientId: 'p1',
    status: 'active',
    coverages: [{ coverageId: 'cv1', clientId: 'c1', memberNumber: 'M1', validFrom: '2025-01-01' }],
  },
};
const scheduled = (id: string, date = '2025-03-03') => ({
  type: 'SessionScheduled',
  data: { sessionId: id, patientId: 'p1', date, shiftId: 'sh1', locationId: 'l1', kind: 'regular' },
});
const ended = { type: 'SessionEnded', data: { endedAt: '2025-03-03T12:00:00Z', effectiveMinutes: 240 } };
const signed = { type: 'SessionSignedByNurse', data: { userId: 'u1', staffId: 'st1', signedAt: '2025-03-03T12:10:00Z' } };
const cancelled = { type: 'SessionCancelled', data: { reason: 'hospitalized' } };

describe('widgets-payers projection', () => {
  it('watches an authorization by its units left: low at 2 or 10 %, gone when voided', async () => {
    const outcome = given(authorization(issued(12), consumed('s1', 9), consumed('s2', 10)));
    await outcome.then<AuthorizationWatchDoc>(PAYERS_AUTHORIZATIONS, 'a1', (doc) =>
      assert.deepEqual([doc.used, doc.remaining, doc.low, doc.validTo], [10, 2, 1, '2025-03-31']),
    );
    await given(authorization(issued(40), consumed('s1', 35, 40))).then<AuthorizationWatchDoc>(PAYERS_AUTHORIZATIONS, 'a1', (doc) =>
      assert.deepEqual([doc.remaining, doc.low], [5, 0]),
    );
    await given(authorization(issued(40), consumed('s1', 36, 40))).then<AuthorizationWatchDoc>(PAYERS_AUTHORIZATIONS, 'a1', (doc) =>
      assert.equal(doc.low, 1),
    );
    await given(authorization(issued(), { type: 'AuthorizationVoided', data: { reason: 'wrong patient' } })).thenAbsent(
      PAYERS_AUTHORIZATIONS,
      'a1',
    );
  });

  it('counts authorizations per last day: ending, low and exhausted move with the units; a void takes it away', async () => {
    const other = streamOf(
      't1',
      'payerAuthorization',
      'a2',
    )({ ...issued(3), data: { ...issued(3).data, authorizationId: 'a2' } }, consumed('s9', 3, 3));
    const outcome = given(authorization(issued(12), consumed('s1', 9)), other);
    await outcome.then<AuthorizationDayDoc>(PAYERS_AUTHORIZATION_DAYS, '2025-03-31', (doc) =>
      assert.deepEqual([doc.count, doc.low, doc.exhausted], [2, 1, 1]),
    );
    const voided = { type: 'AuthorizationVoided', data: { reason: 'wrong patient' } };
    await given(authorization(issued(12), consumed('s1', 10), voided), other).then<AuthorizationDayDoc>(
      PAYERS_AUTHORIZATION_DAYS,
      '2025-03-31',
      (doc) => assert.deepEqual([doc.count, doc.low, doc.exhausted], [1, 1, 1]),
    );
    const events = authorization(issued(12), consumed('s1', 10), voided);
    await given(events, events[0]!, events[1]!, events[2]!).then<AuthorizationDayDoc>(PAYERS_AUTHORIZATION_DAYS, '2025-03-31', (doc) =>
      assert.deepEqual([doc.count, doc.low, doc.exhausted], [0, 0, 0]),
    );
  });

  it('watches a licence expiry while the staff member is active; renewal moves it, termination drops it', async () => {
    await given(staff(hired, licence('2025-05-01'))).then<LicenceWatchDoc>(PAYERS_LICENCES, 'st1', (doc) =>
      assert.deepEqual([doc.familyNames, doc.watchOn], ['Ruiz', '2025-05-01']),
    );
    const renewed = { type: 'StaffLicenseRenewed', data: { body: 'CEP', number: '123', expiresOn: '2027-05-01', previous: {} } };
    await given(staff(hired, licence('2025-05-01'), renewed)).then<LicenceWatchDoc>(PAYERS_LICENCES, 'st1', (doc) =>
      assert.equal(doc.watchOn, '2027-05-01'),
    );
    const terminated = { type: 'StaffTerminated', data: { terminationDate: '2025-04-01', reason: 'resigned' } };
    await given(staff(hired, licence('2025-05-01'), terminated)).thenFind<LicenceWatchDoc>(
      PAYERS_LICENCES,
      { watchOn: { $gte: '0000-01-01' } },
      (docs) => assert.equal(docs.length, 0),
    );
  });

  it('bills a paid, covered session at the contract rate: flagged until signed, moved out when cancelled', async () => {
    const setup = [client(registered, contract(false)), patient(patientRegistered)];
    const outcome = given(...setup, session('s1')(scheduled('s1'), ended), session('s2')(scheduled('s2'), ended, signed));
    await outcome.then<BillingMonthDoc>(PAYERS_BILLING, '2025-03|c1', (doc) => {
      assert.equal(doc.sessions, 2);
      assert.deepEqual(doc.due, { PEN: { sessions: 1, amount: '350.50' } });
      assert.deepEqual(doc.flagged, { PEN: { sessions: 1, amount: '350.50' } });
    });
    const amended = { type: 'SessionAmended', data: { block: 'times', changes: {}, previous: {}, reason: 'x', effectiveMinutes: 0 } };
    const interrupted = {
      type: 'SessionInterrupted',
      data: { interruptedAt: '2025-03-03T09:00:00Z', reasonCode: 'clotting', effectiveMinutes: 30 },
    };
    const moved = given(...setup, session('s1')(scheduled('s1'), interrupted, signed, amended), session('s2')(scheduled('s2'), cancelled));
    await moved.then<BillingMonthDoc>(PAYERS_BILLING, '2025-03|c1', (doc) =>
      assert.deepEqual([doc.sessions, doc.due, doc.flagged], [0, {}, {}]),
    );
  });

  it('a contract that requires an authorization keeps the session flagged until a unit is consumed for it', async () => {
    const setup = [client(registered, contract(true)), patient(patientRegistered), session('s1')(scheduled('s1'), ended, signed)];
    await given(...setup).then<BillingMonthDoc>(PAYERS_BILLING, '2025-03|c1', (doc) =>
      assert.deepEqual(doc.flagged, { PEN: { sessions: 1, amount: '350.50' } }),
    );
    await given(...setup, authorization(issued(), consumed('s1', 1))).then<BillingMonthDoc>(PAYERS_BILLING, '2025-03|c1', (doc) => {
      assert.deepEqual([doc.due, doc.flagged], [{ PEN: { sessions: 1, amount: '350.50' } }, {}]);
    });
  });

  it('a coverage added later, back-dated, bills the sessions already treated', async () => {
    const uncovered = { ...patientRegistered, data: { ...patientRegistered.data, coverages: [] } };
    const added = { type: 'CoverageAdded', data: { coverageId: 'cv2', clientId: 'c1', memberNumber: 'M2', validFrom: '2025-02-01' } };
    const events = [client(registered, contract(false)), patient(uncovered), session('s1')(scheduled('s1'), ended, signed)].flat();
    await given(events).thenAbsent(PAYERS_BILLING, '2025-03|c1');
    const later = patient(added);
    await given(events, later, later[0]!).then<BillingMonthDoc>(PAYERS_BILLING, '2025-03|c1', (doc) =>
      assert.deepEqual([doc.sessions, doc.due], [1, { PEN: { sessions: 1, amount: '350.50' } }]),
    );
  });

  it('changes nothing when events are delivered again, and keeps each company apart', async () => {
    const events = [client(registered, contract(false)), patient(patientRegistered), session('s1')(scheduled('s1'), ended, signed)].flat();
    await given(events, events[4]!, events[5]!).then<BillingMonthDoc>(PAYERS_BILLING, '2025-03|c1', (doc) => assert.equal(doc.sessions, 1));
    await given(events, authorization(issued(), consumed('s1', 1)), staff(hired, licence('2025-05-01'))).thenIdempotent();
    const apart = given(events, otherSession(scheduled('s1'), ended, signed));
    await apart.in('t2').then<BilledSessionDoc>(PAYERS_SESSIONS, 's1', (doc) => assert.deepEqual(doc.buckets, []));
    await apart.in('t2').thenAbsent(PAYERS_BILLING, '2025-03|c1');
  });
});
