// Commands on a patient's prescription as the routes run them, and the read the session start uses: the prescription
// stream itself (never the read model, so a version issued a moment ago is already in force).
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { patientDecider } from '../../pacientes/patientDecider.js';
import type { AppServices } from '../../../services.js';
import { maySignClinicalRecords } from '../../../queries/colaboradores/maySign.js';
import { companyDay } from '../../../queries/empresas/companyCalendar.js';
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import type { PrescriptionSnapshot } from '../session/sessionEvents.js';
import { prescriptionDecider } from './prescriptionDecider.js';
import type { PatientFacts, PrescriberFacts, PrescriptionFields } from './prescriptionEvents.js';
import { versionInForce, type PrescriptionState, type PrescriptionVersion } from './prescriptionState.js';

export type PrescriptionResult = CommandResult<PrescriptionState>;

export const prescriptionStream = (tenantId: string, patientId: string): string =>
  streamName(tenantId, prescriptionDecider.category, patientId);

/** The patient as the decider needs it; a patient of another company is simply absent. */
async function patientFacts(events: EventStore, tenantId: string, patientId: string): Promise<PatientFacts> {
  const { state } = await loadAggregate(events, patientDecider, streamName(tenantId, 'patient', patientId));
  return { exists: state.exists, status: state.status };
}

const commandTime = (services: AppServices, ctx: CommandContext): string => ctx.at ?? services.now().toISOString();

/** The caller is the prescriber: a physician's staff record allowed to sign clinical records at the command time. */
async function prescriberFacts(services: AppServices, ctx: CommandContext, at: string): Promise<PrescriberFacts> {
  const verdict = await maySignClinicalRecords({ services, auth: { tenantId: ctx.tenantId } }, ctx.actor, at, 'physician');
  return { userId: ctx.actor, staffId: verdict.staffId, allowed: verdict.allowed, reasons: [...verdict.reasons] };
}

/** Issues the next version of the patient's prescription (If-Match: the stream revision the physician read). */
export async function issuePrescription(
  services: AppServices,
  ctx: CommandContext,
  patientId: string,
  fields: PrescriptionFields,
  ifMatch: number | null,
): Promise<PrescriptionResult> {
  const at = commandTime(services, ctx);
  const [patient, prescriber] = await Promise.all([
    patientFacts(services.events, ctx.tenantId, patientId),
    prescriberFacts(services, ctx, at),
  ]);
  const command = { type: 'IssuePrescription' as const, aggregateId: patientId, at, data: { ...fields, patient, prescriber } };
  return handleCommand(services.events, prescriptionDecider, command, { ...ctx, at }, { ifMatch });
}

/** Discontinues the latest version from `from` (default: the company's today). */
export async function discontinuePrescription(
  services: AppServices,
  ctx: CommandContext,
  patientId: string,
  input: { reason: string; from?: string },
  ifMatch: number | null,
): Promise<PrescriptionResult> {
  const at = commandTime(services, ctx);
  const patient = await patientFacts(services.events, ctx.tenantId, patientId);
  const from = input.from ?? (await companyDay({ services, auth: { tenantId: ctx.tenantId } }, new Date(at)));
  const command = { type: 'DiscontinuePrescription' as const, aggregateId: patientId, at, data: { from, reason: input.reason, patient } };
  return handleCommand(services.events, prescriptionDecider, command, { ...ctx, at }, { ifMatch });
}

/** The snapshot a session copies: what the machine is set to and who prescribed it (plain data, never a reference). */
export function snapshotOf(v: PrescriptionVersion): PrescriptionSnapshot {
  return {
    version: v.version,
    durationMinutes: v.durationMinutes,
    dryWeightKg: v.dryWeightKg,
    modality: v.modality,
    frequencyPerWeek: v.frequencyPerWeek,
    ufGoalRule: v.ufGoalRule,
    qbMlMin: v.qbMlMin,
    qdMlMin: v.qdMlMin,
    dialyzer: { ...v.dialyzer },
    dialysate: { ...v.dialysate },
    anticoagulation: { ...v.anticoagulation },
    needles: v.needles ? { ...v.needles } : null,
    catheterLock: v.catheterLock ? { ...v.catheterLock } : null,
    medications: v.medications.map((m) => ({ ...m })),
    prescribedBy: { ...v.prescribedBy },
    validFrom: v.validFrom,
    validTo: v.validTo ?? null,
    residualUreaClearance: v.residualUreaClearance ? { ...v.residualUreaClearance } : null,
  };
}

/** The version of the patient's prescription in force on `date` (YYYY-MM-DD), read from its stream; null when none. */
export async function prescriptionInForce(
  services: AppServices,
  tenantId: string,
  patientId: string,
  date: string,
): Promise<PrescriptionSnapshot | null> {
  const { state } = await loadAggregate(services.events, prescriptionDecider, prescriptionStream(tenantId, patientId));
  const version = versionInForce(state, date);
  return version ? snapshotOf(version) : null;
}
