// Given machine events / when a command / then: calibration and preventive maintenance gate the machine (issue 21, item 12).
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import type { DomainError } from '../decider.js';
import { machineDecider } from './machineDecider.js';
import type { MachineCommand, MachineEvent, StartPolicy } from './machineEvents.js';
import { calibrationDue, startVerdict } from './shared/startRules.js';
import { machineRegistered, startPolicy } from './machineTestEvents.js';

const given = scenario(machineDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends MachineCommand['type']>(type: T, data: Extract<MachineCommand, { type: T }>['data'], when = at): MachineCommand =>
  ({ type, data, at: when, actor: 'u1', aggregateId: 'm1', tenantId: 't1' }) as MachineCommand;
const registered = machineRegistered({ installDate: '2025-02-20' });
const plan = (overrides: Partial<StartPolicy> = {}): StartPolicy => startPolicy({ calibrationEveryDays: 30, ...overrides });
const patient = { exists: true, active: true, isolation: [] as string[] };
const start = (maintenance = plan(), when = at) =>
  cmd('StartMachineUse', { sessionId: 'ses9', patientId: 'p1', patient, maintenance }, when);
const calibrated = (passed: boolean, parameter = 'conductivity', when = at): MachineEvent => ({
  type: 'MachineCalibrated',
  data: { parameter, reference: 14, measured: passed ? 14.1 : 15.2, passed, performedAt: when },
});
const reasonsOf = (e: DomainError): string[] => (e.details?.reasons as { code: string }[]).map((r) => r.code);
const stateAfter = (...events: MachineEvent[]) => events.reduce((s, e) => machineDecider.evolve(s, e), machineDecider.initialState);
const use = (sessionId: string, startedAt: string, hours: number, meter: number, count: number): MachineEvent[] => [
  { type: 'MachineUseStarted', data: { sessionId, patientId: 'p1', startedAt, warnings: [], policyRevision: 3, patientIsolation: [] } },
  {
    type: 'MachineUseEnded',
    data: { sessionId, operatingHours: hours, hourMeter: meter, sessionCount: count, disinfectionRequired: false, policyRevision: 3 },
  },
];

describe('machine calibration and maintenance gate', () => {
  it('a failed calibration takes the machine out of service and refuses a start until that parameter passes again', () => {
    const failed = stateAfter(registered, calibrated(false));
    assert.deepEqual([failed.status, failed.failedCalibrations], ['out-of-service', ['conductivity']]);
    given(registered, calibrated(false))
      .when(start())
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['not-available', 'calibration-failed']));
    // Another parameter passing does not clear it; the failed one passing does, and gives the status back.
    const other = stateAfter(registered, calibrated(false), calibrated(true, 'temperature'));
    assert.deepEqual([other.status, other.failedCalibrations], ['out-of-service', ['conductivity']]);
    const fixed = stateAfter(registered, calibrated(false), calibrated(true));
    assert.deepEqual([fixed.status, fixed.failedCalibrations], ['available', []]);
    assert.equal(given(registered, calibrated(false), calibrated(true)).when(start()).events()[0]!.type, 'MachineUseStarted');
  });

  it('a failed calibration of a machine awaiting disinfection gives that status back once it passes', () => {
    const events = [registered, ...use('s1', at, 4, 4, 1)];
    const awaiting: MachineEvent = { ...events[2]!, data: { ...(events[2]!.data as object), disinfectionRequired: true } } as MachineEvent;
    const after = stateAfter(registered, events[1]!, awaiting, calibrated(false), calibrated(true));
    assert.equal(after.status, 'awaiting-disinfection');
  });

  it('calibrations come due by the interval of the policy (or the model), counted from the last passing one', () => {
    assert.deepEqual(calibrationDue('2025-01-01', 30, '2025-01-31T10:00:00Z'), { dueDate: '2025-01-31', overdue: false });
    assert.deepEqual(calibrationDue('2025-01-01', 30, '2025-02-01T00:00:00Z'), { dueDate: '2025-01-31', overdue: true });
    assert.deepEqual(calibrationDue('2025-01-01', null, '2030-01-01T00:00:00Z'), { dueDate: null, overdue: false });
    const late = '2025-04-15T10:00:00.000Z';
    given(registered)
      .when(start(plan(), late))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['calibration-overdue']));
    given(registered, calibrated(true, 'conductivity', '2025-04-01T08:00:00.000Z'))
      .when(start(plan(), late))
      .events();
    // A failed one does not restart the interval; in warn mode an overdue calibration only warns.
    given(registered, calibrated(true, 'conductivity', '2025-04-01T08:00:00.000Z'), calibrated(true, 'conductivity', late))
      .when(start(plan(), late))
      .events();
    const warned = startVerdict({ ...stateAfter(registered), isolation: 'none' }, patient, plan({ overdueMode: 'warn' }), late);
    assert.deepEqual([warned.allowed, warned.warnings.map((w) => w.code)], [true, ['calibration-overdue']]);
  });

  it('a back-dated preventive maintenance forgives only the hours run before its date, not those since', () => {
    // 10 h on 2025-02-25, 6 h on 2025-03-01; the PM performed on 2025-02-27 is recorded on 2025-03-01.
    const history = [registered, ...use('s1', '2025-02-25T08:00:00.000Z', 10, 10, 1), ...use('s2', at, 6, 16, 2)];
    const pm = given(...history)
      .when(cmd('RecordPreventiveMaintenance', { performedOn: '2025-02-27', actions: '500 h kit' }))
      .events();
    assert.deepEqual(pm[0]!.data, { performedOn: '2025-02-27', actions: '500 h kit', hourMeter: 16, hoursSincePerformed: 6 });
    const after = stateAfter(...history, ...pm);
    assert.deepEqual([after.pmBaseDate, after.pmBaseHours], ['2025-02-27', 10]);
    // Performed today: every hour run so far is before it.
    const today = given(...history)
      .when(cmd('RecordPreventiveMaintenance', { performedOn: '2025-03-01', actions: 'kit' }))
      .events();
    assert.equal(stateAfter(...history, ...today).pmBaseHours, 16);
  });

  it('preventive maintenance records its return-to-service tests: a failed one keeps the machine in maintenance', () => {
    const pmStarted: MachineEvent = { type: 'PreventiveMaintenanceStarted', data: { startedAt: at } };
    const tests = [
      { name: 'conductivity vs meter', passed: true },
      { name: 'air detector', passed: false },
    ];
    const events = given(registered, pmStarted)
      .when(cmd('RecordPreventiveMaintenance', { performedOn: '2025-03-01', actions: 'kit', tests }))
      .events();
    assert.deepEqual(events[0]!.data, { performedOn: '2025-03-01', actions: 'kit', hourMeter: 0, tests, allPassed: false });
    const held = stateAfter(registered, pmStarted, ...events);
    assert.deepEqual([held.status, held.lastPreventiveMaintenance], ['preventive-maintenance', null]);
    const passing = tests.map((t) => ({ ...t, passed: true }));
    const ok = given(registered, pmStarted)
      .when(cmd('RecordPreventiveMaintenance', { performedOn: '2025-03-01', actions: 'kit', tests: passing }))
      .events();
    assert.equal(stateAfter(registered, pmStarted, ...ok).status, 'available');
  });
});
