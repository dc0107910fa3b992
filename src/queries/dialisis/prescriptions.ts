// Queries over the prescription read model: a patient's versions newest first, the one in force on a day, and the
// version record (a version kept in its patient's prescription stream; read after a write, folded when the model lags).
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Page } from '../../stores/readStore.js';
import { foldAt, notYetExisting, recordModel, type RecordAt, type RecordPoint } from '../recordModel.js';
import { streamName } from '../../stores/eventStore.js';
import { ProblemError } from '../../problems.js';
import { PRESCRIPTION_VERSIONS, PRESCRIPTIONS_PROJECTION } from '../../projections/dialisis/prescriptionsProjection.js';
import { foldsOf, prescriptionView, type PrescriptionDoc } from '../../projections/dialisis/prescriptionsDoc.js';
import { PACIENTES_PROJECTION } from '../../projections/pacientes/pacientesProjection.js';
import type { PatientDoc } from '../../projections/pacientes/patientDoc.js';
import { patientModel, patients } from '../pacientes/readModel.js';
import { companyDay } from '../empresas/companyCalendar.js';
import { PRESCRIPTION_CATEGORY } from '../../commands/dialisis/prescription/prescriptionEvents.js';
import { changedSince } from '../changedSince.js';

/** The patient of a version record (its id is `<patientId>:<version>`, prescriptionDocId). */
const patientOfVersion = (id: string): string => id.slice(0, id.lastIndexOf(':'));

/** A prescription version: kept in its patient's stream, folded from the events that touch that version. */
export const prescriptionModel = recordModel<PrescriptionDoc>({
  projection: PRESCRIPTIONS_PROJECTION,
  collection: PRESCRIPTION_VERSIONS,
  category: PRESCRIPTION_CATEGORY,
  fold: (doc, event, id) => {
    const version = Number(id.slice(id.lastIndexOf(':') + 1));
    for (const f of foldsOf(event)) if (f.version === version) doc = f.fold(doc, event);
    return doc;
  },
  streamOf: patientOfVersion,
  // The patient's read model too: a dry weight sent with the prescription was recorded there just before.
  alsoAwait: [PACIENTES_PROJECTION],
  notFound: 'Prescription not found',
});
export const prescriptionVersions = prescriptionModel.collection;

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
  page: { limit: number; cursor?: string; updatedSince?: string },
): Promise<Page<PrescriptionView>> {
  const patient = await patientModel.or404(scope, patientId);
  const found = await prescriptionVersions(scope).find(
    scope.auth.tenantId,
    { patientId, ...changedSince(page.updatedSince) },
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

/**
 * The version in force on `date` (default: the company's day then) as the patient's prescriptions stood at a point, with
 * the dry weight then: 404 not-yet-existing before the first version, 404 when none was in force that day.
 */
export async function prescriptionInForceAt(
  scope: TenantScope,
  patientId: string,
  date: string | undefined,
  point: RecordPoint,
): Promise<{ at: RecordAt<PrescriptionDoc>; view: PrescriptionView }> {
  const own = streamName(scope.auth.tenantId, PRESCRIPTION_CATEGORY, patientId);
  const events = await scope.services.events.readStream(own);
  const then = 'asOf' in point ? point.asOf : undefined;
  const day = date ?? (await companyDay(scope, then ? new Date(then) : scope.services.now()));
  const versions = [...new Set(events.map((e) => (e.data as { version: number }).version))].sort((a, b) => b - a);
  const spec = { fold: prescriptionModel.fold, notFound: 'Prescription not found' };
  let existed = false;
  for (const version of versions) {
    let at: RecordAt<PrescriptionDoc>;
    try {
      at = foldAt(spec, events, own, `${patientId}:${version}`, point);
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'not-yet-existing') continue;
      throw err;
    }
    existed = true;
    const { validFrom, effectiveTo } = at.doc;
    if (validFrom > day || (effectiveTo !== null && effectiveTo < day)) continue;
    const patient = await patientModel.at(scope, patientId, { asOf: then ?? at.event.metadata.occurredAt }).catch(() => null);
    return { at, view: withDryWeight(prescriptionView(at.doc), patient?.doc ?? null, day) };
  }
  // Another company's patient (or one never prescribed) is as absent as a missing one.
  if (events.length === 0) await patientModel.or404(scope, patientId);
  if (events.length > 0 && !existed) throw notYetExisting('prescription', events[0]!.metadata.occurredAt);
  throw notFoundProblem(`No prescription in force on ${day}`);
}

/** A version as clients see it: with the patient's dry weight in force from its effectiveFrom. */
export async function prescriptionVersionView(doc: PrescriptionDoc, scope: TenantScope): Promise<PrescriptionView> {
  return fromEffective(prescriptionView(doc), await patients(scope).get(scope.auth.tenantId, doc.patientId));
}
