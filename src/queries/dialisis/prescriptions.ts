// Queries over the prescription read model: a patient's versions newest first, the one in force on a day, and the
// version a write produced (folded from the stream when the read model lags).
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Page } from '../../stores/readStore.js';
import { streamName } from '../../stores/eventStore.js';
import { PRESCRIPTION_VERSIONS, PRESCRIPTIONS_PROJECTION } from '../../projections/dialisis/prescriptionsProjection.js';
import { foldVersionDoc, prescriptionDocId, prescriptionView, type PrescriptionDoc } from '../../projections/dialisis/prescriptionsDoc.js';
import { PACIENTES_PROJECTION } from '../../projections/pacientes/pacientesProjection.js';
import type { PatientDoc } from '../../projections/pacientes/patientDoc.js';
import { patientModel, patients } from '../pacientes/readModel.js';

/** Category of the prescription streams (the write side's name for them): one stream per patient. */
export const PRESCRIPTION_CATEGORY = 'prescription';

export const prescriptionVersions = (scope: TenantScope): Collection<PrescriptionDoc> =>
  scope.services.projections.collection<PrescriptionDoc>(PRESCRIPTIONS_PROJECTION, PRESCRIPTION_VERSIONS);

export type PrescriptionView = Record<string, unknown>;

/**
 * One dry weight (issue 21 item 4): a version shows the patient's dry weight in force on a day (their /peso-seco record,
 * the latest effective on or before it), never a copy of its own; null when none is.
 */
export function dryWeightOn(patient: Pick<PatientDoc, 'dryWeightHistory'> | null, date: string): number | null {
  let inForce: { dryWeightKg: number; effectiveDate: string } | null = null;
  for (const w of patient?.dryWeightHistory ?? []) {
    if (w.effectiveDate <= date && (inForce === null || w.effectiveDate >= inForce.effectiveDate)) inForce = w;
  }
  return inForce?.dryWeightKg ?? null;
}

function withDryWeight(view: PrescriptionView, patient: Pick<PatientDoc, 'dryWeightHistory'> | null, date: string): PrescriptionView {
  return { ...view, dryWeightKg: dryWeightOn(patient, date) };
}

const fromEffective = (view: PrescriptionView, patient: Pick<PatientDoc, 'dryWeightHistory'> | null): PrescriptionView =>
  withDryWeight(view, patient, view.effectiveFrom as string);

/** The patient's versions, newest first (404 for a patient not of this company). */
export async function listPrescriptions(
  scope: TenantScope,
  patientId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<PrescriptionView>> {
  const patient = await patientModel.or404(scope, patientId);
  const found = await prescriptionVersions(scope).find(
    scope.auth.tenantId,
    { patientId },
    { sort: { version: -1 }, limit: page.limit, after: page.cursor ?? null },
  );
  return { items: found.items.map((doc) => fromEffective(prescriptionView(doc), patient)), nextCursor: found.nextCursor };
}

/** Revision of the patient's prescription stream (the newest version is touched by every event); null when none. */
export async function prescriptionRevision(scope: TenantScope, patientId: string): Promise<number | null> {
  const newest = await prescriptionVersions(scope).find(scope.auth.tenantId, { patientId }, { sort: { version: -1 }, limit: 1 });
  return newest.items[0]?.revision ?? null;
}

/** The version in force on `date` (YYYY-MM-DD), or 404 (also for a patient not of this company). */
export async function prescriptionInForceOr404(scope: TenantScope, patientId: string, date: string): Promise<PrescriptionView> {
  const patient = await patientModel.or404(scope, patientId);
  const doc = await prescriptionVersions(scope).findOne(scope.auth.tenantId, {
    patientId,
    validFrom: { $lte: date },
    $or: [{ effectiveTo: null }, { effectiveTo: { $gte: date } }],
  });
  if (!doc) throw notFoundProblem(`No prescription in force on ${date}`);
  return withDryWeight(prescriptionView(doc), patient, date);
}

/** The version a write produced or changed, at least at the write's revision. */
export async function prescriptionAfterWrite(
  scope: TenantScope,
  patientId: string,
  version: number,
  result: { revision: number; position: bigint | null },
): Promise<PrescriptionView> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      // The patient's read model too: a dry weight sent with the prescription was recorded there just before.
      projections: [PRESCRIPTIONS_PROJECTION, PACIENTES_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const tenantId = scope.auth.tenantId;
  const patient = await patients(scope).get(tenantId, patientId);
  const doc = await prescriptionVersions(scope).get(tenantId, prescriptionDocId(patientId, version));
  if (doc && doc.revision >= result.revision) return fromEffective(prescriptionView(doc), patient);
  const folded = foldVersionDoc(await scope.services.events.readStream(streamName(tenantId, PRESCRIPTION_CATEGORY, patientId)), version);
  if (!folded) throw notFoundProblem('Prescription not found');
  return fromEffective(prescriptionView(folded), patient);
}
