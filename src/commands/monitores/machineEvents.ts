// Dialysis machines of a company (stream `<tenant>.machine-<id>`): commands and events. Who/when/why travel in the
// event metadata (actor, occurredAt, reason); the status is never set directly, it follows from these events.
import type { CommandEnvelope, DecidedEvent } from '../decider.js';
import { ISOLATION_CATEGORIES, type IsolationCategory, type MaintenancePlan, type OverdueMode } from '../empresas/shared/policySettings.js';
import { streamName } from '../../stores/streamNames.js';

/** The category of the machine streams: written once, here (the decider, the writes and the read side take it). */
export const MACHINE_CATEGORY = 'machine';
export const machineStream = (tenantId: string, machineId: string): string => streamName(tenantId, MACHINE_CATEGORY, machineId);

export const MACHINE_STATUSES = [
  'available',
  'in-use',
  'awaiting-disinfection',
  'disinfecting',
  'preventive-maintenance',
  'corrective-maintenance',
  'out-of-service',
  'retired',
] as const;
export type MachineStatus = (typeof MACHINE_STATUSES)[number];

export const MACHINE_ISOLATIONS = ['none', 'HBV', 'HCV', 'HIV'] as const;
export type MachineIsolation = (typeof MACHINE_ISOLATIONS)[number];
/** What a machine serves: 'none' (no isolation), one category, or a set of them (issue 21 item 11: HBV + HCV). */
export type MachineServes = MachineIsolation | IsolationCategory[];

/** The categories a machine serves, as a set in a stable order: 'none' is the empty set. */
export function servedCategories(isolation: MachineServes): IsolationCategory[] {
  const given: readonly string[] = Array.isArray(isolation) ? isolation : [isolation];
  return ISOLATION_CATEGORIES.filter((c) => given.includes(c));
}

export const TICKET_STATUSES = ['open', 'assigned', 'in-progress', 'waiting-for-part', 'completed', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const FAULT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type FaultSeverity = (typeof FAULT_SEVERITIES)[number];

export type MachineFields = {
  code: string;
  serial: string;
  brand: string;
  model: string;
  locationId: string;
  stationId: string;
  installDate: string;
  warrantyEnd?: string;
  isolation: MachineServes;
};
export type MachinePatch = Partial<Omit<MachineFields, 'warrantyEnd'>> & { warrantyEnd?: string | null };
export const CORRECTABLE_MACHINE_FIELDS = [
  'code',
  'serial',
  'brand',
  'model',
  'locationId',
  'stationId',
  'installDate',
  'warrantyEnd',
  'isolation',
] as const;

/** What the orchestration tells the decider about the patient of a session (absent = not of this company). */
export interface PatientFacts {
  exists: boolean;
  active: boolean;
  isolation: string[];
}

/** The maintenance part of the company policy that applies to this machine's model, with its revision. */
export interface MaintenancePolicy extends MaintenancePlan {
  revision: number;
  overdueMode: OverdueMode;
}

/** What a start on this machine is judged by: its maintenance plan, and the infections that need a machine of their own. */
export interface StartPolicy extends MaintenancePolicy {
  dedicatedMachineFor: readonly string[];
}

export interface ReturnTest {
  name: string;
  passed: boolean;
}
export interface ReplacedPart {
  name: string;
  quantity: number;
}

export type MachineCommand =
  | CommandEnvelope<'RegisterMachine', MachineFields>
  | CommandEnvelope<'CorrectMachine', MachinePatch>
  | CommandEnvelope<'StartMachineUse', { sessionId: string; patientId: string; patient: PatientFacts; maintenance: StartPolicy }>
  | CommandEnvelope<
      'EndMachineUse',
      {
        sessionId: string;
        operatingHours: number;
        policy: { revision: number; disinfectionRequired: boolean };
        /** A use recorded by hand for an ended session (back-entry): counted even when the session no longer holds the machine. */
        byHand?: boolean;
      }
    >
  | CommandEnvelope<'CancelMachineUse', { sessionId: string; reason: string }>
  | CommandEnvelope<'StartDisinfection', { method: string }>
  | CommandEnvelope<'RecordDisinfection', { method: string; chemical?: string; lot?: string; afterSessionId?: string }>
  | CommandEnvelope<'RecordCalibration', { parameter: string; reference: number; measured: number; unit?: string; passed: boolean }>
  | CommandEnvelope<'StartPreventiveMaintenance', Record<string, never>>
  | CommandEnvelope<'RecordPreventiveMaintenance', { performedOn: string; actions: string; technician?: string; tests?: ReturnTest[] }>
  | CommandEnvelope<'ReportFault', { ticketId: string; severity: FaultSeverity; problem: string }>
  | CommandEnvelope<
      'AdvanceRepairTicket',
      { ticketId: string; to: 'assigned' | 'in-progress' | 'waiting-for-part'; assignedTo?: string; part?: string }
    >
  | CommandEnvelope<
      'CompleteRepair',
      {
        ticketId: string;
        workDone: string;
        partsReplaced: ReplacedPart[];
        cost?: { amount: number; currency: string };
        downtimeHours: number;
      }
    >
  | CommandEnvelope<'CloseRepairTicket', { ticketId: string; tests: ReturnTest[] }>
  | CommandEnvelope<'RetireMachine', { reason: string }>;

export type MachineEvent =
  | DecidedEvent<'MachineRegistered', MachineFields & { machineId: string }>
  | DecidedEvent<'MachineCorrected', { changes: MachinePatch; previous: MachinePatch }>
  | DecidedEvent<
      'MachineUseStarted',
      {
        sessionId: string;
        patientId: string;
        startedAt: string;
        warnings: { code: string; message: string }[];
        policyRevision: number;
        /** The patient's isolation at start (absent on events before it was kept): an isolated patient forces a disinfection. */
        patientIsolation?: string[];
      }
    >
  | DecidedEvent<
      'MachineUseEnded',
      {
        sessionId: string;
        operatingHours: number;
        hourMeter: number;
        sessionCount: number;
        disinfectionRequired: boolean;
        policyRevision: number;
        /** Recorded by hand for an ended session (issue 21 item 10); absent when the session's end recorded it. */
        byHand?: true;
      }
    >
  /** A session's claim given back before its patient got onto the machine: no hours, no session, no disinfection. */
  | DecidedEvent<'MachineUseCancelled', { sessionId: string; reason: string; cancelledAt: string }>
  | DecidedEvent<'MachineDisinfectionStarted', { method: string; startedAt: string }>
  | DecidedEvent<
      'MachineDisinfected',
      { method: string; chemical?: string; lot?: string; afterSessionId: string | null; performedAt: string }
    >
  | DecidedEvent<
      'MachineCalibrated',
      { parameter: string; reference: number; measured: number; unit?: string; passed: boolean; performedAt: string }
    >
  | DecidedEvent<'PreventiveMaintenanceStarted', { startedAt: string }>
  | DecidedEvent<
      'PreventiveMaintenancePerformed',
      {
        performedOn: string;
        actions: string;
        technician?: string;
        /** The hour meter when recorded. */
        hourMeter: number;
        /** Hours of the uses since the date performed (a back-dated PM does not forgive them); absent = 0. */
        hoursSincePerformed?: number;
        /** Return-to-service tests: a failed one keeps the machine in maintenance and the plan is not restarted. */
        tests?: ReturnTest[];
        allPassed?: boolean;
      }
    >
  | DecidedEvent<
      'MachineFaultReported',
      { ticketId: string; severity: FaultSeverity; problem: string; openedAt: string; statusBeforeFault: MachineStatus }
    >
  | DecidedEvent<'RepairTicketAdvanced', { ticketId: string; from: TicketStatus; to: TicketStatus; assignedTo?: string; part?: string }>
  | DecidedEvent<
      'RepairCompleted',
      {
        ticketId: string;
        workDone: string;
        partsReplaced: ReplacedPart[];
        cost?: { amount: number; currency: string };
        downtimeHours: number;
      }
    >
  | DecidedEvent<'RepairTicketClosed', { ticketId: string; tests: ReturnTest[]; allPassed: boolean; machineStatus: MachineStatus }>
  | DecidedEvent<'MachineRetired', { reason: string }>;

export const MACHINE_EVENT_TYPES: readonly MachineEvent['type'][] = [
  'MachineRegistered',
  'MachineCorrected',
  'MachineUseStarted',
  'MachineUseEnded',
  'MachineUseCancelled',
  'MachineDisinfectionStarted',
  'MachineDisinfected',
  'MachineCalibrated',
  'PreventiveMaintenanceStarted',
  'PreventiveMaintenancePerformed',
  'MachineFaultReported',
  'RepairTicketAdvanced',
  'RepairCompleted',
  'RepairTicketClosed',
  'MachineRetired',
];

/** Codes and serials compare trimmed and case-insensitively: ' M-01 ' and 'm-01' are one value. */
export function machineValueKey(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}

/** Operating hours the machine ran for a session: at least one hundredth of an hour once it started. */
export const operatingHoursOf = (effectiveMinutes: number): number => Math.max(0.01, Math.round((effectiveMinutes / 60) * 100) / 100);
