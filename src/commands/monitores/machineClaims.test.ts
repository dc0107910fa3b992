// Given machine events / when a session claims, cancels or ends / then: the claim at session start and its compensation.
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import type { DomainError } from '../decider.js';
import { machineDecider } from './machineDecider.js';
import type { MachineCommand, MachineEvent, StartPolicy } from './machineEvents.js';

const given = scenario(machineDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends MachineCommand['type']>(type: T, data: Extract<MachineCommand, { type: T }>['data']): MachineCommand =>
  ({ type, data, at, actor: 'u1', aggregateId: 'm1', tenantId: 't1' }) as MachineCommand;

const registered: MachineEvent = {
  type: 'MachineRegistered',
  data: {
    machineId: 'm1',
    code: 'M-01',
    serial: 'SN-1',
    brand: 'Fresenius',
    model: '4008S',
    locationId: 'l1',
    stationId: 's1',
    installDate: '2025-01-01',
    isolation: 'none',
  },
};
const plan: StartPolicy = {
  preventiveEveryHours: 1500,
  preventiveEveryDays: 180,
  overdueMode: 'block',
  revision: 3,
  dedicatedMachineFor: ['HBV'],
};
const patient = { exists: true, active: true, isolation: [] as string[] };
const start = (sessionId = 'ses1', patientId = 'p1') => cmd('StartMachineUse', { sessionId, patientId, patient, maintenance: plan });
const started: MachineEvent = {
  type: 'MachineUseStarted',
  data: { sessionId: 'ses1', patientId: 'p1', startedAt: at, warnings: [], policyRevision: 3, patientIsolation: [] },
};
const cancel = (sessionId = 'ses1', reason = 'dialyzer claim refused') => cmd('CancelMachineUse', { sessionId, reason });
const cancelled: MachineEvent = {
  type: 'MachineUseCancelled',
  data: { sessionId: 'ses1', reason: 'dialyzer claim refused', cancelledAt: at },
};
const end = (sessionId = 'ses1') =>
  cmd('EndMachineUse', { sessionId, operatingHours: 4, policy: { revision: 3, disinfectionRequired: true } });
const stateAfter = (...events: MachineEvent[]) => events.reduce((s, e) => machineDecider.evolve(s, e), machineDecider.initialState);
const reasonsOf = (e: DomainError): { code: string; message: string }[] => e.details?.reasons as { code: string; message: string }[];

describe('machine claims at session start', () => {
  it('a retried claim by the session that holds the machine decides nothing; another session is told it is in use', () => {
    given(registered, started).when(start()).then();
    given(registered, started)
      .when(start('ses2', 'p2'))
      .thenError('may-not-start', (e) =>
        assert.deepEqual(reasonsOf(e), [{ code: 'not-available', message: 'the machine is in use by another session' }]),
      );
  });

  it('cancelling gives the machine back available: no hours, no session, no disinfection', () => {
    given(registered, started).when(cancel()).then(cancelled);
    const after = stateAfter(registered, started, cancelled);
    assert.deepEqual(
      [after.status, after.currentSession, after.hourMeter, after.sessionCount, after.lastSessionId],
      ['available', null, 0, 0, null],
    );
    // The freed machine takes the next session at once.
    assert.equal(given(registered, started, cancelled).when(start('ses2', 'p2')).events()[0]?.type, 'MachineUseStarted');
  });

  it('only the holder cancels: another session, a repeat, or a machine never claimed decide nothing', () => {
    given(registered, started).when(cancel('ses2')).then();
    given(registered, started, cancelled).when(cancel()).then();
    given(registered).when(cancel()).then();
    given().when(cancel()).thenError('not-found');
    given(registered, started).when(cancel('ses1', '  ')).thenError('validation-failed');
  });

  it('after a fault the cancelled claim leaves the machine in repair and restores it available, not awaiting disinfection', () => {
    const fault: MachineEvent = {
      type: 'MachineFaultReported',
      data: { ticketId: 'k1', severity: 'high', problem: 'no power', openedAt: at, statusBeforeFault: 'in-use' },
    };
    given(registered, started, fault).when(cancel()).then(cancelled);
    const after = stateAfter(registered, started, fault, cancelled);
    assert.deepEqual([after.status, after.interruptedSession, after.restoreTo], ['corrective-maintenance', null, 'available']);
  });

  it('ending a session already ended decides nothing; a cancelled session cannot end', () => {
    const ended: MachineEvent = {
      type: 'MachineUseEnded',
      data: { sessionId: 'ses1', operatingHours: 4, hourMeter: 4, sessionCount: 1, disinfectionRequired: true, policyRevision: 3 },
    };
    given(registered, started, ended).when(end()).then();
    given(registered, started, cancelled).when(end()).thenError('not-in-use-by-session');
  });
});
