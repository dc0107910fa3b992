// The crash harness's invariant checks see a violation when the log holds one: a claim left with a session that never
// started, a consequence applied twice, a transfer left in flight, a document held twice (logs written as the service
// writes them; what the harness reads after each restart).
import assert from 'node:assert/strict';
import {
  duplicateDocumentViolations,
  equipmentClaimViolations,
  payerReservationViolations,
  seatViolations,
} from './crashHarness/claimInvariants.js';
import { EventLog, type LoggedEvent } from './crashHarness/eventLog.js';
import { consequenceViolations, inFlightViolations } from './crashHarness/stockInvariants.js';
import type { Company } from './crashHarness/seed.js';

let position = 0;
const e = (category: string, id: string, type: string, data: Record<string, unknown> = {}): LoggedEvent => ({
  position: ++position,
  category,
  id,
  type,
  data,
});
const company = { supplyId: 'supply' } as Company;

/** A session started on machine m1 and dialyzer d1, with its payer unit reserved, then ended with every consequence once. */
const endedSession = (): LoggedEvent[] => [
  e('patientRunningSession', 'p1', 'RunningSessionClaimed', { sessionId: 's1' }),
  e('payerAuthorization', 'a1', 'AuthorizationReserved', { sessionId: 's1' }),
  e('machine', 'm1', 'MachineUseStarted', { sessionId: 's1' }),
  e('dialyzer', 'd1', 'DialyzerReservedForSession', { sessionId: 's1' }),
  e('dialysisSession', 's1', 'SessionStarted', { machineId: 'm1', dialyzerId: 'd1' }),
  e('dialysisSession', 's1', 'SessionEnded', { effectiveMinutes: 0 }),
  e('machine', 'm1', 'MachineUseEnded', { sessionId: 's1' }),
  e('dialyzer', 'd1', 'DialyzerUsed', { sessionId: 's1' }),
  e('payerAuthorization', 'a1', 'AuthorizationConsumed', { sessionId: 's1' }),
  e('stock', 'supply_w1', 'StockIssued', {
    movementId: 'k1',
    productId: 'supply',
    quantity: -1,
    reference: { kind: 'session', sessionId: 's1' },
  }),
];

describe('Crash harness invariants', () => {
  it('find nothing in a log where every operation completed once', () => {
    const log = new EventLog([
      ...endedSession(),
      e('stock', 'supply_w1', 'StockTransferredOut', { movementId: 't1', quantity: -2 }),
      e('stock', 'supply_w2', 'StockTransferredIn', { movementId: 't1', quantity: 2 }),
    ]);
    assert.deepEqual(
      [
        ...equipmentClaimViolations(log),
        ...payerReservationViolations(log),
        ...inFlightViolations(log),
        ...consequenceViolations(log, company),
      ],
      [],
    );
  });

  it('find a machine, a dialyzer and a payer unit held by a session that never started', () => {
    const log = new EventLog([
      e('payerAuthorization', 'a2', 'AuthorizationReserved', { sessionId: 's2' }),
      e('machine', 'm2', 'MachineUseStarted', { sessionId: 's2' }),
      e('dialyzer', 'd2', 'DialyzerReservedForSession', { sessionId: 's2' }),
    ]);
    assert.equal(equipmentClaimViolations(log).length, 2);
    assert.match(payerReservationViolations(log)[0]!, /authorization a2 holds a unit reserved for session s2/);
  });

  it('find a seat held for a session that was never scheduled', () => {
    const log = new EventLog([
      e('shiftDay', 'day1', 'SeatClaimed', { sessionId: 's3' }),
      e('shiftDay', 'day1', 'SeatClaimed', { sessionId: 's4' }),
      e('dialysisSession', 's4', 'SessionScheduled', {}),
    ]);
    assert.deepEqual(seatViolations(log), ['shift day day1 holds a seat for session s3, which was never scheduled']);
  });

  it('find a consequence applied twice or never', () => {
    const log = new EventLog(
      [...endedSession(), e('machine', 'm1', 'MachineUseEnded', { sessionId: 's1' })].filter((x) => x.type !== 'DialyzerUsed'),
    );
    assert.deepEqual(consequenceViolations(log, company), [
      'session s1 ended and its machine use (hours) was applied 2 times',
      'session s1 ended but its dialyzer use was never applied',
    ]);
  });

  it('find a transfer still in flight, one completed twice and a serialized issue with no item', () => {
    const log = new EventLog([
      e('stock', 'supply_w1', 'StockTransferredOut', { movementId: 't2', quantity: -1 }),
      e('stock', 'supply_w1', 'StockTransferredOut', { movementId: 't3', quantity: -1 }),
      e('stock', 'supply_w2', 'StockTransferredIn', { movementId: 't3', quantity: 1 }),
      e('stock', 'supply_w1', 'StockTransferReverted', { movementId: 't3', quantity: 1 }),
      e('stock', 'dz_w1', 'StockIssued', { movementId: 'i1', quantity: -1, equipment: { serial: 'FX-1' } }),
    ]);
    assert.deepEqual(inFlightViolations(log), [
      'transfer t2 left its warehouse and is still in flight',
      'transfer t3 was completed 2 times (arrived 1, given back 1)',
      'serialized issue i1 (serial FX-1) left the stock but no dialyzer exists',
    ]);
  });

  it('find one document held by two patients', () => {
    const log = new EventLog([
      e('patient', 'p1', 'PatientRegistered', { documentType: 'DNI', documentNumber: '1' }),
      e('patient', 'p2', 'PatientRegistered', { documentType: 'DNI', documentNumber: '1' }),
    ]);
    assert.deepEqual(duplicateDocumentViolations(log), ['document DNI:1 is held by two patients: p1 and p2']);
  });
});
