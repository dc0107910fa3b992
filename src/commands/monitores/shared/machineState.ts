// A machine as its history leaves it: fields, derived status, counters, the maintenance basis and the open ticket.
// `evolve` never throws (history is fact); the read model folds the same state.
import type {
  FaultSeverity,
  MachineEvent,
  MachineFields,
  MachinePatch,
  MachineStatus,
  ReplacedPart,
  TicketStatus,
} from '../machineEvents.js';

export interface RepairTicket {
  ticketId: string;
  status: TicketStatus;
  severity: FaultSeverity;
  problem: string;
  openedAt: string;
  statusBeforeFault: MachineStatus;
  assignedTo?: string;
  part?: string;
  workDone?: string;
  partsReplaced?: ReplacedPart[];
  cost?: { amount: number; currency: string };
  downtimeHours?: number;
}

export interface MachineState {
  exists: boolean;
  fields: MachineFields | null;
  status: MachineStatus;
  hourMeter: number;
  sessionCount: number;
  currentSession: { sessionId: string; patientId: string; startedAt: string; patientIsolation?: string[] } | null;
  lastSessionId: string | null;
  pmBaseDate: string;
  pmBaseHours: number;
  lastPreventiveMaintenance: { performedOn: string; hourMeter: number } | null;
  lastDisinfection: { method: string; chemical?: string; lot?: string; afterSessionId: string | null; performedAt: string } | null;
  lastCalibration: { parameter: string; reference: number; measured: number; unit?: string; passed: boolean; performedAt: string } | null;
  openTicket: RepairTicket | null;
  /** Status a closed corrective ticket with every test passed gives back (kept while the machine is out of service). */
  restoreTo: MachineStatus | null;
  /** A session a fault interrupted: its end still adds its hours and counts it (the status stays the repair's). */
  interruptedSession?: { sessionId: string } | null;
  retireReason: string | null;
  /** Uses since the last preventive maintenance, by the day each started (null: not known): a back-dated PM keeps them. */
  usesSincePm: { on: string | null; hours: number }[];
  /** Sessions counted as history (a back-entered session's end, a use by hand): never counted twice (issue 21 item 1). */
  countedAsHistory?: string[];
  /** Parameters whose last calibration failed: the machine stays out of service until each passes. */
  failedCalibrations: string[];
  /** Status a failed calibration took the machine out of, given back when the last failed parameter passes. */
  calibrationHold: MachineStatus | null;
  /** Day the calibration interval counts from: the last passing calibration or maintenance, else the install date. */
  calibrationBaseDate: string;
}

export const initialMachineState: MachineState = {
  exists: false,
  fields: null,
  status: 'available',
  hourMeter: 0,
  sessionCount: 0,
  currentSession: null,
  lastSessionId: null,
  pmBaseDate: '',
  pmBaseHours: 0,
  lastPreventiveMaintenance: null,
  lastDisinfection: null,
  lastCalibration: null,
  openTicket: null,
  restoreTo: null,
  retireReason: null,
  usesSincePm: [],
  failedCalibrations: [],
  calibrationHold: null,
  calibrationBaseDate: '',
};

export function applyMachinePatch(current: MachineFields, patch: MachinePatch): MachineFields {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as unknown as MachineFields;
}

/** What a repaired machine returns to: a session cut by the fault leaves it to be disinfected. */
function restoreStatusOf(state: MachineState, before: MachineStatus): MachineStatus {
  if (before === 'out-of-service') return state.restoreTo ?? 'available';
  if (before === 'in-use') return 'awaiting-disinfection';
  return before;
}

/** A cancelled claim leaves the machine as it was before the session's start: the patient never got onto it. */
function cancelledUse(state: MachineState, sessionId: string): MachineState {
  if (state.status === 'in-use' && state.currentSession?.sessionId === sessionId) {
    return { ...state, status: 'available', currentSession: null };
  }
  if (state.interruptedSession?.sessionId !== sessionId) return state;
  // A fault came while the claim was held: the repaired machine needs no disinfection for a patient it never had.
  const restoreTo = state.restoreTo === 'awaiting-disinfection' ? 'available' : state.restoreTo;
  return { ...state, interruptedSession: null, restoreTo };
}

const later = (a: string | undefined, b: string): string => (a && a > b ? a : b);

/** A failed calibration takes the machine out of service (from wherever it may be taken); all passing again gives it back. */
function calibratedState(state: MachineState, data: { parameter: string; passed: boolean; performedAt: string }): MachineState {
  const key = data.parameter.trim().toLowerCase();
  const others = (state.failedCalibrations ?? []).filter((p) => p !== key);
  if (!data.passed) {
    const holdable = ['available', 'awaiting-disinfection', 'disinfecting', 'preventive-maintenance'].includes(state.status);
    return {
      ...state,
      failedCalibrations: [...others, key],
      ...(holdable ? { status: 'out-of-service' as const, calibrationHold: state.status } : {}),
    };
  }
  const next = {
    ...state,
    failedCalibrations: others,
    calibrationBaseDate: later(state.calibrationBaseDate, data.performedAt.slice(0, 10)),
  };
  if (others.length > 0 || state.calibrationHold === null || state.calibrationHold === undefined) return next;
  return { ...next, status: state.status === 'out-of-service' ? state.calibrationHold : state.status, calibrationHold: null };
}

function evolveTicket(state: MachineState, event: MachineEvent): MachineState {
  const ticket = state.openTicket;
  switch (event.type) {
    case 'MachineFaultReported': {
      const { ticketId, severity, problem, openedAt, statusBeforeFault } = event.data;
      return {
        ...state,
        status: 'corrective-maintenance',
        currentSession: null,
        interruptedSession: state.currentSession ? { sessionId: state.currentSession.sessionId } : (state.interruptedSession ?? null),
        restoreTo: restoreStatusOf(state, statusBeforeFault),
        openTicket: { ticketId, status: 'open', severity, problem, openedAt, statusBeforeFault },
      };
    }
    case 'RepairTicketAdvanced': {
      if (!ticket) return state;
      const { to, assignedTo, part } = event.data;
      return { ...state, openTicket: { ...ticket, status: to, ...(assignedTo ? { assignedTo } : {}), ...(part ? { part } : {}) } };
    }
    case 'RepairCompleted': {
      if (!ticket) return state;
      const { ticketId: _t, ...details } = event.data;
      return { ...state, openTicket: { ...ticket, ...details, status: 'completed' } };
    }
    case 'RepairTicketClosed':
      return {
        ...state,
        openTicket: null,
        status: event.data.machineStatus,
        restoreTo: event.data.allPassed ? null : state.restoreTo,
      };
    default:
      return state;
  }
}

export function evolveMachine(state: MachineState, event: MachineEvent): MachineState {
  switch (event.type) {
    case 'MachineRegistered': {
      const { machineId: _id, ...fields } = event.data;
      return { ...initialMachineState, exists: true, fields, pmBaseDate: fields.installDate, calibrationBaseDate: fields.installDate };
    }
    case 'MachineCorrected': {
      if (!state.fields) return state;
      const fields = applyMachinePatch(state.fields, event.data.changes);
      // A corrected install date never moves the maintenance clock later: a date typed late must not clear an overdue.
      const earlier = fields.installDate < state.pmBaseDate ? fields.installDate : state.pmBaseDate;
      const pmBaseDate = state.lastPreventiveMaintenance ? state.pmBaseDate : earlier;
      const calibrationBaseDate = state.calibrationBaseDate === state.pmBaseDate ? pmBaseDate : state.calibrationBaseDate;
      return { ...state, fields, pmBaseDate, calibrationBaseDate };
    }
    case 'MachineUseStarted': {
      const { sessionId, patientId, startedAt, patientIsolation } = event.data;
      return {
        ...state,
        status: 'in-use',
        currentSession: { sessionId, patientId, startedAt, ...(patientIsolation ? { patientIsolation } : {}) },
      };
    }
    case 'MachineUseEnded': {
      const { sessionId, hourMeter, sessionCount, disinfectionRequired, operatingHours } = event.data;
      const on = state.currentSession?.sessionId === sessionId ? state.currentSession.startedAt.slice(0, 10) : null;
      const usesSincePm = [...(state.usesSincePm ?? []), { on, hours: operatingHours }];
      if (state.status !== 'in-use' || state.currentSession?.sessionId !== sessionId) {
        // The end of a session a fault interrupted counts its hours; the machine stays where the repair has it. A use by hand
        // of a session that no longer holds the machine only counts: it never frees a machine another session holds.
        if (state.interruptedSession?.sessionId !== sessionId) {
          const countedAsHistory = [...(state.countedAsHistory ?? []), sessionId];
          return { ...state, hourMeter, sessionCount, usesSincePm, countedAsHistory };
        }
        return { ...state, hourMeter, sessionCount, usesSincePm, interruptedSession: null, lastSessionId: sessionId };
      }
      const counted = { hourMeter, sessionCount, lastSessionId: sessionId, usesSincePm };
      const status = disinfectionRequired ? 'awaiting-disinfection' : 'available';
      return { ...state, ...counted, status, currentSession: null };
    }
    case 'MachineUseCancelled':
      return cancelledUse(state, event.data.sessionId);
    case 'MachineDisinfectionStarted':
      return { ...state, status: 'disinfecting' };
    case 'MachineDisinfected':
      return { ...state, status: 'available', lastDisinfection: event.data };
    case 'MachineCalibrated':
      return calibratedState({ ...state, lastCalibration: event.data }, event.data);
    case 'PreventiveMaintenanceStarted':
      return { ...state, status: 'preventive-maintenance' };
    case 'PreventiveMaintenancePerformed': {
      const { performedOn, hourMeter, hoursSincePerformed, allPassed } = event.data;
      if (allPassed === false) return { ...state, status: 'preventive-maintenance' };
      const baseHours = Math.round((hourMeter - (hoursSincePerformed ?? 0)) * 100) / 100;
      return {
        ...state,
        status: 'available',
        pmBaseDate: performedOn,
        pmBaseHours: baseHours,
        lastPreventiveMaintenance: { performedOn, hourMeter: baseHours },
        // Only uses on or after the date performed can still count against a later back-dated maintenance.
        usesSincePm: (state.usesSincePm ?? []).filter((u) => u.on === null || u.on >= performedOn),
        calibrationBaseDate: later(state.calibrationBaseDate, performedOn),
      };
    }
    case 'MachineRetired':
      return { ...state, status: 'retired', retireReason: event.data.reason, openTicket: null, currentSession: null };
    default:
      return evolveTicket(state, event);
  }
}
