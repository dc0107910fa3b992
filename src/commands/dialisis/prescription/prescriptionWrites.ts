// Commands on a patient's prescription as the routes run them, with their facts (prescriptionFacts.ts), and the read the
// session start uses: the prescription stream itself (never the read model, so a version issued a moment ago is in force).
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { patientDecider } from '../../pacientes/patientDecider.js';
import { dryWeightInForce } from '../../pacientes/patientState.js';
import { patientCommand } from '../../pacientes/patientWrites.js';
import { DomainError } from '../../decider.js';
import { invalidFields } from '../../shared/fieldChecks.js';
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import type { PrescriptionInForce } from '../session/sessionEvents.js';
import { prescriptionDecider } from './prescriptionDecider.js';
import type { PatientFacts, PrescriberFacts, PrescriptionFields } from './prescriptionEvents.js';
import type { LoadPrescriptionFacts } from './prescriptionFacts.js';
import { versionInForce, type PrescriptionState, type PrescriptionVersion } from '../shared/prescriptionState.js';

export type PrescriptionResult = CommandResult<PrescriptionState>;

/** What a prescription command is run with: the event store, the clock and the facts' loader. */
export interface PrescriptionDeps {
  events: EventStore;
  now: () => Date;
  loadFacts: LoadPrescriptionFacts;
}

export const prescriptionStream = (tenantId: string, patientId: string): string =>
  streamName(tenantId, prescriptionDecider.category, patientId);

/** The patient as the decider needs it; a patient of another company is simply absent. */
export async function patientFacts(events: EventStore, tenantId: string, patientId: string): Promise<PatientFacts> {
  const { state } = await loadAggregate(events, patientDecider, streamName(tenantId, 'patient', patientId));
  return { exists: state.exists, status: state.status };
}

const commandTime = (deps: PrescriptionDeps, ctx: CommandContext): string => ctx.at ?? deps.now().toISOString();

/** Issues the next version of the patient's prescription (If-Match: the stream revision the physician read). */
export async function issuePrescription(
  deps: PrescriptionDeps,
  ctx: CommandContext,
  patientId: string,
  fields: PrescriptionFields,
  ifMatch: number | null,
): Promise<PrescriptionResult> {
  const at = commandTime(deps, ctx);
  const { patient, prescriber } = await deps.loadFacts(ctx.tenantId, patientId, { actor: ctx.actor, at });
  const command = { type: 'IssuePrescription' as const, aggregateId: patientId, at, data: { ...fields, patient, prescriber } };
  if (fields.dryWeightKg !== undefined) {
    // Judged first, so a refused prescription records no dry weight; then the dry weight goes to the patient's record.
    const { state } = await loadAggregate(deps.events, prescriptionDecider, prescriptionStream(ctx.tenantId, patientId));
    prescriptionDecider.decide({ ...command, actor: ctx.actor, tenantId: ctx.tenantId }, state);
    await recordDryWeight(deps.events, { ...ctx, at }, patientId, { dryWeightKg: fields.dryWeightKg, from: fields.validFrom, prescriber });
  }
  return handleCommand(deps.events, prescriptionDecider, command, { ...ctx, at }, { ifMatch });
}

/**
 * One dry weight (issue 21 item 4): a dry weight sent with a prescription is prescribed on the patient (Pacientes'
 * /peso-seco) from the prescription's validFrom, unless that is already the one in force then. A validFrom in the future
 * cannot carry one (a dry weight takes effect on a day that has come).
 */
async function recordDryWeight(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  order: { dryWeightKg: number; from: string; prescriber: PrescriberFacts },
): Promise<void> {
  const { state } = await loadAggregate(events, patientDecider, streamName(ctx.tenantId, 'patient', patientId));
  if (dryWeightInForce(state, order.from)?.dryWeightKg === order.dryWeightKg) return;
  const data = {
    dryWeightKg: order.dryWeightKg,
    effectiveDate: order.from,
    ...(order.prescriber.staffId ? { prescribedBy: order.prescriber.staffId } : {}),
  };
  try {
    await patientCommand(events, ctx, patientId, 'PrescribeDryWeight', data, null);
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== 'validation-failed') throw err;
    throw invalidFields([
      { field: 'dryWeightKg', message: 'takes effect from validFrom, which has not come: record it at /pacientes/{id}/peso-seco then' },
    ]);
  }
}

/** Discontinues the latest version from `from` (default: the company's today). */
export async function discontinuePrescription(
  deps: PrescriptionDeps,
  ctx: CommandContext,
  patientId: string,
  input: { reason: string; from?: string },
  ifMatch: number | null,
): Promise<PrescriptionResult> {
  const at = commandTime(deps, ctx);
  const { patient, prescriber, today } = await deps.loadFacts(ctx.tenantId, patientId, { actor: ctx.actor, at });
  const from = input.from ?? (await today());
  const data = { from, reason: input.reason, patient, prescriber };
  const command = { type: 'DiscontinuePrescription' as const, aggregateId: patientId, at, data };
  return handleCommand(deps.events, prescriptionDecider, command, { ...ctx, at }, { ifMatch });
}

/**
 * The snapshot a session copies: what the machine is set to and who prescribed it (plain data, never a reference). No
 * dry weight: the session takes the patient's in force (issue 21 item 4), even from a version that once carried one.
 */
export function snapshotOf(v: PrescriptionVersion): PrescriptionInForce {
  return {
    version: v.version,
    durationMinutes: v.durationMinutes,
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
  deps: { events: EventStore },
  tenantId: string,
  patientId: string,
  date: string,
): Promise<PrescriptionInForce | null> {
  const { state } = await loadAggregate(deps.events, prescriptionDecider, prescriptionStream(tenantId, patientId));
  const version = versionInForce(state, date);
  return version ? snapshotOf(version) : null;
}
