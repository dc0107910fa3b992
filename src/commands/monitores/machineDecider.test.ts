// Given machine events / when a command / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import type { DomainError } from '../decider.js';
import { machineDecider } from './machineDecider.js';
import type { MachineCommand, MachineEvent, MachineFields, StartPolicy } from './machineEvents.js';

const given = scenario(machineDecider);
const at = '2025-03-01T10:00:00.000Z';
const cmd = <T extends MachineCommand['type']>(type: T, data: Extract<MachineCommand, { type: T }>['data'], when = at): MachineCommand =>
  ({ type, data, at: when, actor: 'u1', aggregateId: 'm1', tenantId: 't1' }) as MachineCommand;

const fields: MachineFields = {
  code: 'M-01',
  serial: 'SN-1',
  brand: 'Fresenius',
  model: '4008S',
  locationId: 'l1',
  stationId: 's1',
  installDate: '2025-01-01',
  isolation: 'none',
};
const registered = (f: Partial<MachineFields> = {}): MachineEvent => ({
  type: 'MachineRegistered',
  data: { machineId: 'm1', ...fields, ...f },
});
const plan: StartPolicy = {
  preventiveEveryHours: 1500,
  preventiveEveryDays: 180,
  overdueMode: 'block',
  revision: 3,
  dedicatedMachineFor: ['HBV'],
};
const patient = { exists: true, active: true, isolation: [] as string[] };
const start = (overrides: { patient?: typeof patient; maintenance?: StartPolicy } = {}, when = at) =>
  cmd('StartMachineUse', { sessionId: 'ses1', patientId: 'p1', patient, maintenance: plan, ...overrides }, when);
const started: MachineEvent = {
  type: 'MachineUseStarted',
  data: { sessionId: 'ses1', patientId: 'p1', startedAt: at, warnings: [], policyRevision: 3, patientIsolation: [] },
};
const ended = (hours = 4, hourMeter = 4, sessionCount = 1, disinfectionRequired = true): MachineEvent => ({
  type: 'MachineUseEnded',
  data: { sessionId: 'ses1', operatingHours: hours, hourMeter, sessionCount, disinfectionRequired, policyRevision: 3 },
});
const reasonsOf = (e: DomainError): string[] => (e.details?.reasons as { code: string }[]).map((r) => r.code);
const stateAfter = (...events: MachineEvent[]) => events.reduce((s, e) => machineDecider.evolve(s, e), machineDecider.initialState);

describe('machine decider', () => {
  it('registers a machine available, with its PM clock starting at install', () => {
    given()
      .when(cmd('RegisterMachine', { ...fields, code: ' M-01 ' }))
      .then(registered());
    assert.equal(stateAfter(registered()).status, 'available');
    assert.equal(stateAfter(registered()).pmBaseDate, '2025-01-01');
    given(registered()).when(cmd('RegisterMachine', fields)).thenError('already-exists');
  });

  it('refuses a future install date and a warranty ending before install, naming the fields', () => {
    given()
      .when(cmd('RegisterMachine', { ...fields, installDate: '2030-01-01', warrantyEnd: '2024-01-01', brand: ' ' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['brand', 'installDate', 'warrantyEnd']));
  });

  it('corrects only what changed', () => {
    given(registered())
      .when(cmd('CorrectMachine', { model: '5008S', code: 'M-01' }))
      .then({ type: 'MachineCorrected', data: { changes: { model: '5008S' }, previous: { model: '4008S' } } });
    given(registered())
      .when(cmd('CorrectMachine', { code: 'M-01' }))
      .then();
    given()
      .when(cmd('CorrectMachine', { code: 'x' }))
      .thenError('not-found');
  });

  it('starts use when available, ends it adding hours and a session, then awaits disinfection (or not, per policy)', () => {
    given(registered()).when(start()).then(started);
    given(registered(), started)
      .when(cmd('EndMachineUse', { sessionId: 'ses1', operatingHours: 4, policy: { revision: 3, disinfectionRequired: true } }))
      .then(ended());
    const after = stateAfter(registered(), started, ended());
    assert.deepEqual([after.status, after.hourMeter, after.sessionCount], ['awaiting-disinfection', 4, 1]);
    assert.equal(stateAfter(registered(), started, ended(4, 4, 1, false)).status, 'available');
    given(registered(), started)
      .when(cmd('EndMachineUse', { sessionId: 'other', operatingHours: 4, policy: { revision: 3, disinfectionRequired: true } }))
      .thenError('not-in-use-by-session');
    given(registered(), started)
      .when(cmd('EndMachineUse', { sessionId: 'ses1', operatingHours: 0, policy: { revision: 3, disinfectionRequired: true } }))
      .thenError('validation-failed');
  });

  it('refuses to start a machine in use or awaiting disinfection, with every reason', () => {
    // Another session (the holder's own retry decides nothing: machineClaims.test.ts).
    const another = start();
    given(registered(), started)
      .when({ ...another, data: { ...another.data, sessionId: 'ses2' } } as MachineCommand)
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['not-available']));
    given(registered(), started, ended())
      .when(start())
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['awaiting-disinfection']));
    given(registered())
      .when(start({ patient: { ...patient, exists: false } }))
      .thenError('validation-failed');
  });

  it('disinfects (after the last session) back to available', () => {
    given(registered(), started, ended())
      .when(cmd('RecordDisinfection', { method: 'heat + citric acid', chemical: 'citric acid 20%', lot: 'L-9' }))
      .then({
        type: 'MachineDisinfected',
        data: { method: 'heat + citric acid', chemical: 'citric acid 20%', lot: 'L-9', afterSessionId: 'ses1', performedAt: at },
      });
    const disinfecting: MachineEvent = { type: 'MachineDisinfectionStarted', data: { method: 'heat', startedAt: at } };
    assert.equal(stateAfter(registered(), started, ended(), disinfecting).status, 'disinfecting');
    given(registered(), started)
      .when(cmd('RecordDisinfection', { method: 'heat' }))
      .thenError('machine-status');
  });

  it('records calibrations with their result, not while in use', () => {
    given(registered())
      .when(cmd('RecordCalibration', { parameter: 'conductivity', reference: 14, measured: 14.1, unit: 'mS/cm', passed: true }))
      .then({
        type: 'MachineCalibrated',
        data: { parameter: 'conductivity', reference: 14, measured: 14.1, unit: 'mS/cm', passed: true, performedAt: at },
      });
    given(registered(), started)
      .when(cmd('RecordCalibration', { parameter: 'conductivity', reference: 14, measured: 14, passed: true }))
      .thenError('machine-status');
  });

  it('preventive maintenance resets the PM clock to its date and the hour meter', () => {
    const pmStarted: MachineEvent = { type: 'PreventiveMaintenanceStarted', data: { startedAt: at } };
    given(registered(), started, ended(), { type: 'MachineDisinfected', data: { method: 'heat', afterSessionId: 'ses1', performedAt: at } })
      .when(cmd('StartPreventiveMaintenance', {}))
      .then(pmStarted);
    const pm: MachineEvent = {
      type: 'PreventiveMaintenancePerformed',
      data: { performedOn: '2025-02-28', actions: '500 h kit', hourMeter: 4, hoursSincePerformed: 4 },
    };
    // Performed the day before the session it follows in the record: the session's 4 h ran after it.
    given(registered(), started, ended(), pmStarted)
      .when(cmd('RecordPreventiveMaintenance', { performedOn: '2025-02-28', actions: ' 500 h kit ' }))
      .then(pm);
    const after = stateAfter(registered(), pmStarted, pm);
    assert.deepEqual([after.status, after.pmBaseDate, after.pmBaseHours], ['available', '2025-02-28', 0]);
    given(registered())
      .when(cmd('RecordPreventiveMaintenance', { performedOn: '2024-12-01', actions: 'x' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['performedOn']));
  });

  it('refuses a start when PM is overdue by hours or by days (block), and only warns under warn', () => {
    const worn = stateAfter(registered(), started, ended(10, 1500, 300, false));
    assert.equal(worn.hourMeter, 1500);
    given(registered(), started, ended(10, 1500, 300, false))
      .when(start())
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['maintenance-overdue']));
    given(registered())
      .when(start({}, '2025-07-01T10:00:00.000Z'))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['maintenance-overdue']));
    given(registered())
      .when(start({}, '2025-06-30T10:00:00.000Z'))
      .then({ ...started, data: { ...started.data, startedAt: '2025-06-30T10:00:00.000Z' } });
    const [warned] = given(registered(), started, ended(10, 1500, 300, false))
      .when(start({ maintenance: { ...plan, overdueMode: 'warn' } }))
      .events();
    assert.equal(warned!.type, 'MachineUseStarted');
    assert.deepEqual(
      (warned!.data as { warnings: { code: string }[] }).warnings.map((w) => w.code),
      ['maintenance-overdue'],
    );
  });

  it('keeps isolation both ways: an HBV machine only for HBV patients, an HBV patient only on an HBV machine', () => {
    given(registered({ isolation: 'HBV' }))
      .when(start())
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['isolation-machine']));
    given(registered())
      .when(start({ patient: { ...patient, isolation: ['HBV'] } }))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['isolation-patient']));
    given(registered({ isolation: 'HCV' }))
      .when(start({ patient: { ...patient, isolation: ['HBV'] } }))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['isolation-machine', 'isolation-patient']));
    const hbvStarted: MachineEvent = { ...started, data: { ...started.data, patientIsolation: ['HBV'] } };
    given(registered({ isolation: 'HBV' }))
      .when(start({ patient: { ...patient, isolation: ['HBV'] } }))
      .then(hbvStarted);
  });

  it('after an isolated patient the machine awaits disinfection whatever the setting; its isolation changes only when available', () => {
    const hbv = registered({ isolation: 'HBV' });
    const hbvStarted: MachineEvent = { ...started, data: { ...started.data, patientIsolation: ['HBV'] } };
    given(hbv, hbvStarted)
      .when(cmd('EndMachineUse', { sessionId: 'ses1', operatingHours: 4, policy: { disinfectionRequired: false, revision: 3 } }))
      .then(ended(4, 4, 1, true));
    given(hbv, hbvStarted)
      .when(cmd('CorrectMachine', { isolation: 'none' }))
      .thenError('machine-status');
    given(hbv, hbvStarted, ended(4, 4, 1, true))
      .when(cmd('CorrectMachine', { isolation: 'none' }))
      .thenError('machine-status');
  });

  it('the end of a session a fault interrupted still adds its hours, and leaves the machine in repair', () => {
    const fault: MachineEvent = {
      type: 'MachineFaultReported',
      data: { ticketId: 'k9', severity: 'high', problem: 'blood pump stopped', openedAt: at, statusBeforeFault: 'in-use' },
    };
    const end = cmd('EndMachineUse', { sessionId: 'ses1', operatingHours: 4, policy: { disinfectionRequired: true, revision: 3 } });
    given(registered(), started, fault)
      .when(end)
      .then(ended(4, 4, 1, true));
    const after = stateAfter(registered(), started, fault, ended(4, 4, 1, true));
    assert.deepEqual([after.status, after.hourMeter, after.sessionCount], ['corrective-maintenance', 4, 1]);
    // A replayed end of a session already counted decides nothing (the consequences process may run it again).
    given(registered(), started, fault, ended(4, 4, 1, true))
      .when(end)
      .then();
  });

  it('a corrected install date never moves the maintenance clock later', () => {
    const after = stateAfter(registered({ installDate: '2025-01-01' }), {
      type: 'MachineCorrected',
      data: { changes: { installDate: '2025-08-30' }, previous: { installDate: '2025-01-01' } },
    });
    assert.equal(after.pmBaseDate, '2025-01-01');
  });

  describe('corrective ticket', () => {
    const fault: MachineEvent = {
      type: 'MachineFaultReported',
      data: { ticketId: 'k1', severity: 'high', problem: 'conductivity alarm', openedAt: at, statusBeforeFault: 'available' },
    };
    const step = (from: string, to: string, extra = {}): MachineEvent =>
      ({ type: 'RepairTicketAdvanced', data: { ticketId: 'k1', from, to, ...extra } }) as MachineEvent;
    const completed: MachineEvent = {
      type: 'RepairCompleted',
      data: { ticketId: 'k1', workDone: 'sensor replaced', partsReplaced: [{ name: 'sensor', quantity: 1 }], downtimeHours: 6 },
    };
    const ready = [registered(), fault, step('open', 'assigned', { assignedTo: 'tech' }), step('assigned', 'in-progress'), completed];

    it('opens on a fault and puts the machine in corrective maintenance; one open ticket at a time', () => {
      given(registered())
        .when(cmd('ReportFault', { ticketId: 'k1', severity: 'high', problem: ' conductivity alarm ' }))
        .then(fault);
      assert.equal(stateAfter(registered(), fault).status, 'corrective-maintenance');
      given(registered(), fault)
        .when(cmd('ReportFault', { ticketId: 'k2', severity: 'low', problem: 'x' }))
        .thenError('ticket-open');
    });

    it('moves open -> assigned -> in-progress <-> waiting-for-part -> completed, refusing skipped steps', () => {
      given(registered(), fault)
        .when(cmd('AdvanceRepairTicket', { ticketId: 'k1', to: 'assigned', assignedTo: 'tech' }))
        .then(step('open', 'assigned', { assignedTo: 'tech' }));
      given(registered(), fault)
        .when(cmd('AdvanceRepairTicket', { ticketId: 'k1', to: 'in-progress' }))
        .thenError('ticket-transition');
      given(registered(), fault)
        .when(cmd('AdvanceRepairTicket', { ticketId: 'k1', to: 'assigned' }))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['assignedTo']));
      given(...ready.slice(0, 4))
        .when(cmd('AdvanceRepairTicket', { ticketId: 'k1', to: 'waiting-for-part', part: 'pump' }))
        .then(step('in-progress', 'waiting-for-part', { part: 'pump' }));
      given(...ready.slice(0, 3))
        .when(cmd('CompleteRepair', { ticketId: 'k1', workDone: 'x', partsReplaced: [], downtimeHours: 1 }))
        .thenError('ticket-transition');
      given(...ready.slice(0, 4))
        .when(
          cmd('CompleteRepair', {
            ticketId: 'k1',
            workDone: 'sensor replaced',
            partsReplaced: [{ name: 'sensor', quantity: 1 }],
            downtimeHours: 6,
          }),
        )
        .then(completed);
      given(...ready)
        .when(cmd('AdvanceRepairTicket', { ticketId: 'other', to: 'assigned', assignedTo: 'x' }))
        .thenError('not-found');
    });

    it('closes with all tests passed restoring the status before the fault; a failed test leaves it out of service', () => {
      const tests = [
        { name: 'conductivity', passed: true },
        { name: 'alarms', passed: true },
      ];
      given(...ready)
        .when(cmd('CloseRepairTicket', { ticketId: 'k1', tests }))
        .then({ type: 'RepairTicketClosed', data: { ticketId: 'k1', tests, allPassed: true, machineStatus: 'available' } });
      const failed = [{ name: 'alarms', passed: false }];
      given(...ready)
        .when(cmd('CloseRepairTicket', { ticketId: 'k1', tests: failed }))
        .then({ type: 'RepairTicketClosed', data: { ticketId: 'k1', tests: failed, allPassed: false, machineStatus: 'out-of-service' } });
      given(...ready)
        .when(cmd('CloseRepairTicket', { ticketId: 'k1', tests: [] }))
        .thenError('validation-failed');
      given(...ready.slice(0, 4))
        .when(cmd('CloseRepairTicket', { ticketId: 'k1', tests }))
        .thenError('ticket-transition');
      const awaiting = [registered(), started, ended()];
      const faultAfterUse: MachineEvent = { ...fault, data: { ...fault.data, statusBeforeFault: 'awaiting-disinfection' } };
      assert.equal(stateAfter(...awaiting, faultAfterUse).restoreTo, 'awaiting-disinfection');
      // Out of service, a second ticket still restores what the machine was before the first fault.
      const closedFailed: MachineEvent = {
        type: 'RepairTicketClosed',
        data: { ticketId: 'k1', tests: failed, allPassed: false, machineStatus: 'out-of-service' },
      };
      const second: MachineEvent = { ...fault, data: { ...fault.data, ticketId: 'k2', statusBeforeFault: 'out-of-service' } };
      assert.equal(stateAfter(...awaiting, faultAfterUse, closedFailed, second).restoreTo, 'awaiting-disinfection');
    });
  });

  it('retires with a reason, for good', () => {
    const retired: MachineEvent = { type: 'MachineRetired', data: { reason: 'end of life' } };
    given(registered())
      .when(cmd('RetireMachine', { reason: ' end of life ' }))
      .then(retired);
    given(registered(), started)
      .when(cmd('RetireMachine', { reason: 'x' }))
      .thenError('machine-status');
    for (const command of [start(), cmd('RetireMachine', { reason: 'again' }), cmd('CorrectMachine', { model: 'x' })]) {
      given(registered(), retired).when(command).thenError('machine-retired');
    }
  });
});
