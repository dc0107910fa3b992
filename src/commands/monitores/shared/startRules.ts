// May this machine start a session for this patient now: every reason it may not, and what only warns. Pure, so the
// decider (at start of use) and the floor query (before it) judge with the same rules.
import type { CompanyPolicy, MaintenancePlan } from '../../empresas/shared/policySettings.js';
import { servedCategories, type MachineServes, type MachineStatus, type StartPolicy } from '../machineEvents.js';

export interface StartReason {
  code: string;
  message: string;
}

export interface StartVerdict {
  allowed: boolean;
  reasons: StartReason[];
  warnings: StartReason[];
}

/** What the plan needs to know about a machine: its hour meter and the last preventive maintenance (or install). */
export interface MaintenanceBasis {
  hourMeter: number;
  /** Date of the last preventive maintenance, else the install date. */
  pmBaseDate: string;
  /** Hour meter at the last preventive maintenance (0 at install). */
  pmBaseHours: number;
}

/** What the calibration rules read (absent on read documents folded before they were kept). */
export interface CalibrationBasis {
  pmBaseDate: string;
  failedCalibrations?: string[];
  calibrationBaseDate?: string;
}

export interface MaintenanceDue {
  /** Operating hours left before the plan's hours run out (negative: overdue); null when the plan is not by hours. */
  hoursLeft: number | null;
  /** Last day of the plan's days (the maintenance is due by then); null when the plan is not by days. */
  dueDate: string | null;
  overdue: boolean;
}

const modelKey = (model: string): string => model.normalize('NFKC').trim().toLowerCase();

/** The company's plan for a model: its override when there is one, else the general plan. */
export function planFor(maintenance: CompanyPolicy['maintenance'], model: string): MaintenancePlan {
  const override = maintenance.modelOverrides.find((o) => modelKey(o.model) === modelKey(model));
  const plan = override ?? maintenance;
  // A model plan without its own calibration interval keeps the general one.
  const calibrationEveryDays =
    override?.calibrationEveryDays !== undefined ? override.calibrationEveryDays : maintenance.calibrationEveryDays;
  return {
    preventiveEveryHours: plan.preventiveEveryHours,
    preventiveEveryDays: plan.preventiveEveryDays,
    calibrationEveryDays: calibrationEveryDays ?? null,
  };
}

/** The policy a start on this model is judged by (maintenance, isolation), with the policy revision the event records. */
export function maintenancePolicyOf(policy: { revision: number; settings: CompanyPolicy }, model: string): StartPolicy {
  return {
    ...planFor(policy.settings.maintenance, model),
    overdueMode: policy.settings.maintenance.overdueMode,
    revision: policy.revision,
    dedicatedMachineFor: policy.settings.isolation.dedicatedMachineFor,
  };
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Next preventive maintenance: by hours and/or by days, whichever comes first. */
export function maintenanceDue(basis: MaintenanceBasis, plan: MaintenancePlan, at: string): MaintenanceDue {
  const hoursLeft =
    plan.preventiveEveryHours === null ? null : Math.round((basis.pmBaseHours + plan.preventiveEveryHours - basis.hourMeter) * 100) / 100;
  const dueDate = plan.preventiveEveryDays === null ? null : addDays(basis.pmBaseDate, plan.preventiveEveryDays);
  const today = at.slice(0, 10);
  const overdue = (hoursLeft !== null && hoursLeft <= 0) || (dueDate !== null && today > dueDate);
  return { hoursLeft, dueDate, overdue };
}

/** Next calibration: `everyDays` after the last passing calibration or maintenance (else the install date). */
export function calibrationDue(
  baseDate: string,
  everyDays: number | null | undefined,
  at: string,
): { dueDate: string | null; overdue: boolean } {
  if (everyDays === null || everyDays === undefined || !baseDate) return { dueDate: null, overdue: false };
  const dueDate = addDays(baseDate, everyDays);
  return { dueDate, overdue: at.slice(0, 10) > dueDate };
}

/** Calibration reasons: a failed one always refuses; an overdue one refuses or warns as the maintenance policy says. */
function calibrationReasons(
  machine: CalibrationBasis,
  maintenance: StartPolicy,
  at: string,
): { reasons: StartReason[]; warnings: StartReason[] } {
  const reasons: StartReason[] = [];
  const warnings: StartReason[] = [];
  const failed = machine.failedCalibrations ?? [];
  if (failed.length > 0) {
    reasons.push({ code: 'calibration-failed', message: `the last calibration of ${failed.join(', ')} failed: a passing one is needed` });
  }
  const due = calibrationDue(machine.calibrationBaseDate ?? machine.pmBaseDate, maintenance.calibrationEveryDays, at);
  if (due.overdue) {
    const overdue = { code: 'calibration-overdue', message: `calibration is overdue (was due ${due.dueDate})` };
    (maintenance.overdueMode === 'block' ? reasons : warnings).push(overdue);
  }
  return { reasons, warnings };
}

/**
 * Isolation as sets (issue 21 item 11): a machine serving infections only takes a patient who has every one of them, and
 * a patient whose infection the company dedicates machines to (policy; default HBV, shared/domain.md) only a machine
 * serving it. A patient co-infected with HBV and HCV may so use a machine serving both, or (HCV not dedicated) an HBV one.
 */
export function isolationReasons(
  machine: MachineServes,
  patientIsolation: readonly string[],
  dedicatedFor: readonly string[],
): StartReason[] {
  const reasons: StartReason[] = [];
  const served: readonly string[] = servedCategories(machine);
  for (const category of served) {
    if (patientIsolation.includes(category)) continue;
    reasons.push({
      code: 'isolation-machine',
      message: `this machine serves ${category} patients; the patient is not under ${category} isolation`,
    });
  }
  for (const needed of patientIsolation) {
    if (!dedicatedFor.includes(needed) || served.includes(needed)) continue;
    const what = served.length === 0 ? 'a machine without isolation' : `a machine serving ${served.join(' + ')}`;
    reasons.push({ code: 'isolation-patient', message: `the patient is under ${needed} isolation and may not use ${what}` });
  }
  return reasons;
}

export function startVerdict(
  machine: MaintenanceBasis & CalibrationBasis & { status: MachineStatus; isolation: MachineServes },
  patient: { isolation: readonly string[] },
  maintenance: StartPolicy,
  at: string,
): StartVerdict {
  const reasons: StartReason[] = [];
  const warnings: StartReason[] = [];
  if (machine.status === 'awaiting-disinfection') {
    reasons.push({ code: 'awaiting-disinfection', message: 'the machine must be disinfected after its last session' });
  } else if (machine.status === 'in-use') {
    reasons.push({ code: 'not-available', message: 'the machine is in use by another session' });
  } else if (machine.status !== 'available') {
    reasons.push({ code: 'not-available', message: `the machine is ${machine.status}` });
  }
  const due = maintenanceDue(machine, maintenance, at);
  if (due.overdue) {
    const overdue = {
      code: 'maintenance-overdue',
      message: `preventive maintenance is overdue${due.hoursLeft !== null && due.hoursLeft <= 0 ? ` by ${-due.hoursLeft} operating hours` : ''}${due.dueDate !== null && at.slice(0, 10) > due.dueDate ? ` (was due ${due.dueDate})` : ''}`,
    };
    (maintenance.overdueMode === 'block' ? reasons : warnings).push(overdue);
  }
  const calibration = calibrationReasons(machine, maintenance, at);
  reasons.push(...calibration.reasons);
  warnings.push(...calibration.warnings);
  reasons.push(...isolationReasons(machine.isolation, patient.isolation, maintenance.dedicatedMachineFor));
  return { allowed: reasons.length === 0, reasons, warnings };
}
