// Every rule about a dialysis machine. Pure: time, ids, the patient's facts and the company policy come in with the command.
import { fieldChanges } from '../shared/fieldChanges.js';
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks, invalidFields, isRealDate, notFutureDate } from '../shared/fieldChecks.js';
import {
  CORRECTABLE_MACHINE_FIELDS,
  type MachineCommand,
  type MachineEvent,
  type MachineStatus,
  MACHINE_CATEGORY,
} from './machineEvents.js';
import { applyMachinePatch, evolveMachine, initialMachineState, type MachineState } from './shared/machineState.js';
import { checkMachineFields, normalIsolation, optionalText, textOf, trimmedMachine } from './machineChecks.js';
import { decideTicket } from './repairTicketRules.js';
import { startVerdict } from './shared/startRules.js';

type Existing = MachineState & { fields: NonNullable<MachineState['fields']> };

function existing(state: MachineState): Existing {
  if (!state.exists || !state.fields) throw notFound('machine');
  if (state.status === 'retired') throw rule('machine-retired', 'the machine is retired');
  return state as Existing;
}

function requireStatus(state: MachineState, allowed: MachineStatus[], action: string): void {
  if (!allowed.includes(state.status)) {
    throw rule('machine-status', `a machine ${state.status} cannot ${action}`, { status: state.status });
  }
}

function decideCorrection(command: Extract<MachineCommand, { type: 'CorrectMachine' }>, state: MachineState): MachineEvent[] {
  const current = existing(state).fields;
  const patch =
    command.data.isolation === undefined ? command.data : { ...command.data, isolation: normalIsolation(command.data.isolation) };
  const diff = fieldChanges(current, patch, CORRECTABLE_MACHINE_FIELDS);
  if (!diff) return [];
  // A new isolation type on a machine in use or not disinfected since its last patient would skip that disinfection.
  if ('isolation' in diff.changes && state.status !== 'available') {
    throw rule('machine-status', `the isolation type changes only on an available (disinfected) machine, not one ${state.status}`, {
      status: state.status,
    });
  }
  checkMachineFields(applyMachinePatch(current, diff.changes), command.at);
  return [{ type: 'MachineCorrected', data: { changes: diff.changes, previous: diff.previous } }];
}

function decideUse(command: Extract<MachineCommand, { type: 'StartMachineUse' | 'EndMachineUse' }>, state: Existing): MachineEvent[] {
  if (command.type === 'StartMachineUse') {
    const { sessionId, patientId, patient, maintenance } = command.data;
    const current = state.currentSession;
    // A retried claim of the session that already holds the machine.
    if (state.status === 'in-use' && current?.sessionId === sessionId && current.patientId === patientId) return [];
    if (!patient.exists) throw invalidFields([{ field: 'patientId', message: 'no such patient in this company' }]);
    if (!patient.active) throw rule('patient-inactive', 'the patient is not active');
    const verdict = startVerdict({ ...state, isolation: state.fields.isolation }, patient, maintenance, command.at);
    if (!verdict.allowed) {
      throw rule('may-not-start', verdict.reasons.map((r) => r.message).join('; '), { reasons: verdict.reasons });
    }
    const data = {
      sessionId,
      patientId,
      startedAt: command.at,
      warnings: verdict.warnings,
      policyRevision: maintenance.revision,
      patientIsolation: [...patient.isolation],
    };
    return [{ type: 'MachineUseStarted', data }];
  }
  const { sessionId, operatingHours, policy, byHand } = command.data;
  // This session's end was already counted, live or as history.
  if (state.lastSessionId === sessionId || state.countedAsHistory?.includes(sessionId)) return [];
  const running = state.status === 'in-use' && state.currentSession?.sessionId === sessionId;
  const interrupted = state.interruptedSession?.sessionId === sessionId;
  // By hand (an ended session's back-entry) the hours count whoever holds the machine now; the holder keeps it.
  if (!running && !interrupted && !byHand) {
    throw rule('not-in-use-by-session', 'the machine is not in use by this session', { status: state.status });
  }
  new FieldChecks().check(operatingHours > 0 && operatingHours <= 24, 'operatingHours', 'must be more than 0 and at most 24').throwIfAny();
  const data = {
    sessionId,
    operatingHours,
    hourMeter: Math.round((state.hourMeter + operatingHours) * 100) / 100,
    sessionCount: state.sessionCount + 1,
    // After an isolated patient the machine is disinfected whatever the company setting says.
    disinfectionRequired:
      (running || interrupted) && (policy.disinfectionRequired || (state.currentSession?.patientIsolation ?? []).length > 0),
    policyRevision: policy.revision,
    ...(byHand ? { byHand: true as const } : {}),
  };
  return [{ type: 'MachineUseEnded', data }];
}

/** Gives back the claim of a session that never started: only the holder can; anyone else changes nothing. */
function decideCancel(command: Extract<MachineCommand, { type: 'CancelMachineUse' }>, state: MachineState): MachineEvent[] {
  if (!state.exists) throw notFound('machine');
  const { sessionId } = command.data;
  const holds = state.status === 'in-use' && state.currentSession?.sessionId === sessionId;
  if (!holds && state.interruptedSession?.sessionId !== sessionId) return [];
  return [{ type: 'MachineUseCancelled', data: { sessionId, reason: textOf(command.data.reason, 'reason'), cancelledAt: command.at } }];
}

/**
 * Operating hours run since a maintenance performed on `performedOn`: none when performed today (every use recorded is
 * before it), else the uses that started on or after that day (and those of unknown day): a back-dated PM forgives only
 * the hours before its date.
 */
function hoursSince(state: MachineState, performedOn: string, at: string): number {
  if (performedOn >= at.slice(0, 10)) return 0;
  const hours = (state.usesSincePm ?? []).filter((u) => u.on === null || u.on >= performedOn).reduce((sum, u) => sum + u.hours, 0);
  return Math.round(Math.min(hours, state.hourMeter) * 100) / 100;
}

function decideCare(command: MachineCommand, state: Existing): MachineEvent[] {
  switch (command.type) {
    case 'StartDisinfection':
      requireStatus(state, ['available', 'awaiting-disinfection'], 'start a disinfection');
      return [{ type: 'MachineDisinfectionStarted', data: { method: textOf(command.data.method, 'method'), startedAt: command.at } }];
    case 'RecordDisinfection': {
      requireStatus(state, ['available', 'awaiting-disinfection', 'disinfecting'], 'record a disinfection');
      const chemical = optionalText(command.data.chemical);
      const lot = optionalText(command.data.lot);
      const data = {
        method: textOf(command.data.method, 'method'),
        ...(chemical ? { chemical } : {}),
        ...(lot ? { lot } : {}),
        afterSessionId: command.data.afterSessionId ?? state.lastSessionId,
        performedAt: command.at,
      };
      return [{ type: 'MachineDisinfected', data }];
    }
    case 'RecordCalibration': {
      if (state.status === 'in-use') throw rule('machine-status', 'a machine in use cannot be calibrated', { status: state.status });
      const { reference, measured, passed } = command.data;
      const unit = optionalText(command.data.unit);
      const parameter = textOf(command.data.parameter, 'parameter');
      return [
        { type: 'MachineCalibrated', data: { parameter, reference, measured, ...(unit ? { unit } : {}), passed, performedAt: command.at } },
      ];
    }
    case 'StartPreventiveMaintenance':
      requireStatus(state, ['available'], 'start preventive maintenance');
      return [{ type: 'PreventiveMaintenanceStarted', data: { startedAt: command.at } }];
    case 'RecordPreventiveMaintenance': {
      requireStatus(state, ['available', 'preventive-maintenance'], 'record preventive maintenance');
      const { performedOn } = command.data;
      const checks = new FieldChecks();
      checks.check(isRealDate(performedOn), 'performedOn', 'is not a real date');
      checks.check(notFutureDate(performedOn, command.at), 'performedOn', 'is in the future');
      checks.check(performedOn >= state.pmBaseDate, 'performedOn', 'is before the last preventive maintenance or the install date');
      checks.throwIfAny();
      const technician = optionalText(command.data.technician);
      const actions = textOf(command.data.actions, 'actions');
      const hoursSincePerformed = hoursSince(state, performedOn, command.at);
      const tests = command.data.tests?.map((t) => ({ name: textOf(t.name, 'tests'), passed: t.passed }));
      const data = {
        performedOn,
        actions,
        ...(technician ? { technician } : {}),
        hourMeter: state.hourMeter,
        ...(hoursSincePerformed > 0 ? { hoursSincePerformed } : {}),
        ...(tests && tests.length > 0 ? { tests, allPassed: tests.every((t) => t.passed) } : {}),
      };
      return [{ type: 'PreventiveMaintenancePerformed', data }];
    }
    case 'RetireMachine':
      if (state.status === 'in-use') throw rule('machine-status', 'a machine in use cannot be retired', { status: state.status });
      return [{ type: 'MachineRetired', data: { reason: textOf(command.data.reason, 'reason') } }];
    default:
      return [];
  }
}

export function decideMachine(command: MachineCommand, state: MachineState): MachineEvent[] {
  switch (command.type) {
    case 'RegisterMachine': {
      if (state.exists) throw new DomainError('already-exists', 'this machine already exists', 409);
      checkMachineFields(command.data, command.at);
      return [{ type: 'MachineRegistered', data: { machineId: command.aggregateId, ...trimmedMachine(command.data) } }];
    }
    case 'CorrectMachine':
      return decideCorrection(command, state);
    case 'StartMachineUse':
    case 'EndMachineUse':
      return decideUse(command, existing(state));
    case 'CancelMachineUse':
      return decideCancel(command, state);
    case 'ReportFault':
    case 'AdvanceRepairTicket':
    case 'CompleteRepair':
    case 'CloseRepairTicket':
      return decideTicket(command, existing(state));
    default:
      return decideCare(command, existing(state));
  }
}

export const machineDecider: Decider<MachineCommand, MachineEvent, MachineState> = {
  category: MACHINE_CATEGORY,
  initialState: initialMachineState,
  evolve: evolveMachine,
  decide: decideMachine,
};
