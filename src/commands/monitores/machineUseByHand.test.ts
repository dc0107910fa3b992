// Given machine events / when a use recorded by hand / then events: the hours of an ended session count whoever holds the
// machine now, and nothing but the holding session's own end frees it (issue 21 item 10).
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import { machineDecider } from './machineDecider.js';
import type { MachineCommand, MachineEvent } from './machineEvents.js';
import { machineRegistered } from './machineTestEvents.js';

const given = scenario(machineDecider);
const at = '2025-03-01T10:00:00.000Z';
const policy = { revision: 3, disinfectionRequired: true };
const end = (sessionId: string, byHand?: boolean): MachineCommand => ({
  type: 'EndMachineUse',
  data: { sessionId, operatingHours: 3.75, policy, ...(byHand ? { byHand } : {}) },
  at,
  actor: 'u1',
  aggregateId: 'm1',
  tenantId: 't1',
});
const registered = machineRegistered();
const startedBy = (sessionId: string): MachineEvent => ({
  type: 'MachineUseStarted',
  data: { sessionId, patientId: 'p2', startedAt: at, warnings: [], policyRevision: 3, patientIsolation: [] },
});
const fault: MachineEvent = {
  type: 'MachineFaultReported',
  data: { ticketId: 't1', severity: 'high', problem: 'leak', openedAt: at, statusBeforeFault: 'in-use' },
};
const closed: MachineEvent = {
  type: 'RepairTicketClosed',
  data: { ticketId: 't1', tests: [{ name: 'alarms', passed: true }], allPassed: true, machineStatus: 'available' },
};
const stateAfter = (...events: MachineEvent[]) => events.reduce((s, e) => machineDecider.evolve(s, e), machineDecider.initialState);
const pastUse = (sessionId: string, hourMeter = 3.75, sessionCount = 1): MachineEvent => ({
  type: 'MachineUseEnded',
  data: { sessionId, operatingHours: 3.75, hourMeter, sessionCount, disinfectionRequired: false, policyRevision: 3, byHand: true },
});

describe('machine use recorded by hand', () => {
  it('counts the hours of an ended session on an available machine and leaves it available', () => {
    given(registered).when(end('past', true)).then(pastUse('past'));
    const state = stateAfter(registered, pastUse('past'));
    assert.deepEqual([state.status, state.hourMeter, state.sessionCount, state.lastSessionId], ['available', 3.75, 1, null]);
  });

  it('counts the hours while another session runs on it, and the machine stays with that session', () => {
    given(registered, startedBy('running')).when(end('past', true)).then(pastUse('past'));
    const state = stateAfter(registered, startedBy('running'), pastUse('past'));
    assert.deepEqual([state.status, state.currentSession?.sessionId, state.hourMeter], ['in-use', 'running', 3.75]);
  });

  it('counts a session once: its use recorded again as history (a back-entry, by hand) decides nothing', () => {
    given(registered, startedBy('running'), pastUse('past')).when(end('past', true)).then();
    given(registered, pastUse('past'), pastUse('other', 7.5, 2))
      .when(end('past', true))
      .then();
  });

  it('without byHand (fin-uso) a session that does not hold the machine is refused', () => {
    given(registered, startedBy('running')).when(end('past')).thenError('not-in-use-by-session');
  });

  it('the late end of a session a fault cut never frees the session that holds the repaired machine', () => {
    const cut = stateAfter(registered, startedBy('cut'), fault, closed, startedBy('running'));
    assert.deepEqual([cut.status, cut.interruptedSession?.sessionId], ['in-use', 'cut']);
    const ended: MachineEvent = {
      type: 'MachineUseEnded',
      data: { sessionId: 'cut', operatingHours: 3.75, hourMeter: 3.75, sessionCount: 1, disinfectionRequired: true, policyRevision: 3 },
    };
    const after = machineDecider.evolve(cut, ended);
    assert.deepEqual(
      [after.status, after.currentSession?.sessionId, after.interruptedSession, after.hourMeter],
      ['in-use', 'running', null, 3.75],
    );
  });
});
