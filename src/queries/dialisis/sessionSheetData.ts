// The printed session sheet's data (issue 10 item 9): the session read model with every id resolved to what a clinic
// prints (names, codes, licences), its clinical values, and the amendments as before -> after.
import type { TenantScope } from '../tenantScope.js';
import { platformCollections } from '../platform/memberships.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { patients } from '../pacientes/readModel.js';
import { locations } from '../empresas/readModel.js';
import { companyTimeZone } from '../empresas/companyCalendar.js';
import { staffRecords } from '../colaboradores/staffRecords.js';
import { machines } from '../monitores/machines.js';
import { dialyzers } from '../filtros-dialisis/dialyzers.js';
import { bloodlines } from '../lineas/bloodlines.js';
import type { SessionDoc, SignatureMark } from '../../projections/dialisis/sessionDoc.js';
import { shifts } from './scheduleQueries.js';
import { clinicalOf } from './sessionClinicalView.js';
import type { SessionSheet, SheetChange, SheetSigner } from './sessionSheet/sessionSheet.js';
import { accessLabel, complicationLabel } from './sessionSheet/sheetText.js';
import { sessionModel } from './sessions.js';
import { COMPANIES } from '../../projections/platform/platformReadModels.js';
import { SCHEDULE_PROJECTION } from '../../projections/dialisis/scheduleProjection.js';
import { MONITORES_PROJECTION } from '../../projections/monitores/monitoresProjection.js';
import { FILTROS_PROJECTION } from '../../projections/filtros-dialisis/filtrosProjection.js';
import { LINEAS_PROJECTION } from '../../projections/lineas/lineasProjection.js';
import { COLABORADORES_PROJECTION } from '../../projections/colaboradores/colaboradoresProjection.js';

/**
 * What the sheet reads (a read at a write's minPosition waits for them all): the session with its clinical values'
 * sources (patients, the policy and the locations' Empresas, prescriptions), the company (name, time zone), the shift,
 * the machines, dialyzers and bloodlines it names, and the staff who signed or recorded.
 */
export const SHEET_READS: readonly string[] = [
  ...sessionModel.awaits,
  COMPANIES.projection,
  SCHEDULE_PROJECTION,
  MONITORES_PROJECTION,
  FILTROS_PROJECTION,
  LINEAS_PROJECTION,
  COLABORADORES_PROJECTION,
];

type Scalar = string | number | boolean | null;
const scalar = (value: unknown): Scalar =>
  value === undefined || value === null ? null : typeof value === 'object' ? JSON.stringify(value) : (value as Scalar);

const changesOf = (changes: Record<string, unknown>, previous: Record<string, unknown>): SheetChange[] =>
  Object.keys(changes).map((field) => ({ field, before: scalar(previous[field]), after: scalar(changes[field]) }));

async function signer(scope: TenantScope, mark: SignatureMark | null): Promise<SheetSigner | null> {
  if (!mark) return null;
  const staff = await staffRecords(scope).get(scope.auth.tenantId, mark.staffId);
  const name = staff ? `${staff.givenNames} ${staff.familyNames}` : mark.userId;
  return { name, licence: staff?.licence ? `${staff.licence.body} ${staff.licence.number}` : null, at: mark.at };
}

/** Who recorded something, by name when the actor is a staff member's user. */
async function actorName(scope: TenantScope, actor: string): Promise<string> {
  const staff = await staffRecords(scope).findOne(scope.auth.tenantId, { userId: actor });
  return staff ? `${staff.givenNames} ${staff.familyNames}` : actor;
}

function dialysateText(dialysate: unknown): string | undefined {
  if (!dialysate || typeof dialysate !== 'object') return undefined;
  const d = dialysate as Record<string, number | string | undefined>;
  const parts = [
    ['Na', d.sodiumMmolL],
    ['K', d.potassiumMmolL],
    ['Ca', d.calciumMmolL],
    ['HCO3', d.bicarbonateMmolL],
  ]
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${v}`);
  if (d.temperatureC !== undefined) parts.push(`${d.temperatureC} °C`);
  return parts.join(' · ');
}

function anticoagulationText(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const a = value as Record<string, number | string | undefined>;
  if (a.kind === 'none') return `Sin anticoagulación${a.reason ? ` (${a.reason})` : ''}`;
  if (a.kind === 'ufh')
    return `Heparina ${a.bolusUnits ?? 0} UI bolo + ${a.hourlyUnits ?? 0} UI/h, suspender ${a.stopMinutesBeforeEnd ?? 0} min antes`;
  return `HBPM ${a.doseUnits ?? a.dose ?? ''} ${a.drug ?? ''}`.trim();
}

/** The interruption as printed: its reason, note, the complication behind it and the minutes it cost. */
function interruptionOf(doc: SessionDoc): NonNullable<SessionSheet['session']['interruption']> {
  const { reasonCode, note, complicationId, lostMinutes } = doc.interruption!;
  const cause = complicationId ? doc.complications.find((c) => c.complicationId === complicationId) : undefined;
  return {
    reasonCode,
    ...(note ? { note } : {}),
    ...(cause ? { complication: complicationLabel(cause.code) } : {}),
    ...(lostMinutes ? { lostMinutes } : {}),
  };
}

/** Each machine change as printed: the codes of both machines, the minutes the old one ran and the reason. */
async function machineChangesOf(scope: TenantScope, doc: SessionDoc): Promise<string[]> {
  const code = async (id: string) => (await machines(scope).get(scope.auth.tenantId, id))?.code ?? id;
  return Promise.all(
    (doc.machineChanges ?? []).map(
      async (c) => `${await code(c.fromMachineId)} -> ${await code(c.machineId)} tras ${c.minutesOnPrevious} min: ${c.reason}`,
    ),
  );
}

/** The access the session used, as its start recorded it; sessions of before: the patient's primary active access. */
function accessUsed(
  doc: Pick<SessionDoc, 'vascularAccess'>,
  patient: { vascularAccesses: { type: string; side: string; site: string; primary: boolean; status: string }[] } | null,
) {
  if (doc.vascularAccess) return accessLabel(doc.vascularAccess);
  const primary = patient?.vascularAccesses.find((a) => a.primary && a.status === 'active');
  return primary ? accessLabel(primary) : null;
}

export async function sessionSheetOf(scope: TenantScope, doc: SessionDoc, generatedAt: string): Promise<SessionSheet> {
  const tenantId = scope.auth.tenantId;
  const [company, timeZone, patient, location, shift, clinical] = await Promise.all([
    platformCollections(scope.services).companies.get(PLATFORM_DOCS, tenantId),
    companyTimeZone(scope),
    patients(scope).get(tenantId, doc.patientId),
    locations(scope).get(tenantId, doc.locationId),
    shifts(scope).get(tenantId, doc.shiftId),
    clinicalOf(scope, doc),
  ]);
  const eq = doc.equipment;
  const machine = eq ? await machines(scope).get(tenantId, eq.machineId) : null;
  const dialyzer = eq?.dialyzerId ? await dialyzers(scope).get(tenantId, eq.dialyzerId) : null;
  const line = async (id: string | null | undefined) => {
    const found = id ? await bloodlines(scope).get(tenantId, id) : null;
    return found ? { code: found.serial, useNumber: found.uses } : null;
  };
  const station = eq?.stationId ? location?.stations.find((s) => s.stationId === eq.stationId) : undefined;
  const rx = doc.prescription;
  const derived = clinical.derived;
  return {
    generatedAt,
    timeZone,
    company: { name: company?.name ?? tenantId, taxId: company?.taxId ?? null },
    location: {
      name: location?.name ?? doc.locationId,
      address: location?.address ? [location.address.line, location.address.city].filter(Boolean).join(', ') : null,
    },
    patient: {
      fullName: patient ? `${patient.givenNames} ${patient.familyNames}` : doc.patientId,
      documentType: patient?.documentType ?? '',
      documentNumber: patient?.documentNumber ?? '',
      birthDate: patient?.birthDate ?? '',
      isolation: patient && patient.isolation.length > 0 ? patient.isolation.join(', ') : null,
      serology: (patient?.serology ?? []).map((s) => ({ marker: s.test, result: s.result, on: s.sampleDate })),
    },
    session: {
      id: doc.id,
      date: doc.date,
      shift: shift?.name ?? doc.shiftId,
      kind: doc.kind,
      status: doc.status,
      checkedInAt: doc.checkedInAt,
      startedAt: doc.startedAt,
      endedAt: doc.endedAt,
      effectiveMinutes: doc.effectiveMinutes,
      station: station?.code ?? null,
      machineCode: machine?.code ?? null,
      dialyzer: dialyzer ? { serial: dialyzer.serial, model: dialyzer.model, useNumber: dialyzer.uses } : null,
      bloodlines: { arterial: await line(eq?.arterialLineId), venous: await line(eq?.venousLineId) },
      machineChanges: await machineChangesOf(scope, doc),
      access: accessUsed(doc, patient),
      interruption: doc.interruption ? interruptionOf(doc) : null,
    },
    prescription: rx
      ? {
          version: rx.version,
          modality: typeof rx.modality === 'string' ? rx.modality : '',
          durationMinutes: rx.durationMinutes,
          ...(typeof rx.qbMlMin === 'number' ? { qbMlMin: rx.qbMlMin } : {}),
          ...(typeof rx.qdMlMin === 'number' ? { qdMlMin: rx.qdMlMin } : {}),
          ...((rx.dialyzer as { model?: string } | undefined)?.model ? { dialyzerModel: (rx.dialyzer as { model: string }).model } : {}),
          ...(dialysateText(rx.dialysate) ? { dialysate: dialysateText(rx.dialysate)! } : {}),
          ...(anticoagulationText(rx.anticoagulation) ? { anticoagulation: anticoagulationText(rx.anticoagulation)! } : {}),
          dryWeightKg: rx.dryWeightKg,
        }
      : null,
    pre: doc.pre
      ? { ...doc.pre, netWeightKg: derived.netPreWeightKg ?? doc.pre.scaleWeightKg, idwgKg: derived.idwgKg, ufGoalL: derived.ufGoalL }
      : null,
    safetyChecks: doc.safetyChecks,
    readings: doc.readings,
    complications: doc.complications,
    medications: doc.medications,
    post: doc.post ? { ...doc.post, netWeightKg: derived.netPostWeightKg ?? doc.post.scaleWeightKg } : null,
    derived: { ...derived, flags: clinical.flags },
    signatures: { nurse: await signer(scope, doc.nurseSignature), physician: await signer(scope, doc.physicianValidation) },
    earlierValidations: (await Promise.all((doc.earlierValidations ?? []).map((mark) => signer(scope, mark)))).filter(
      (s): s is SheetSigner => s !== null,
    ),
    amendments: await Promise.all(
      doc.amendments.map(async (a) => ({
        at: a.at,
        by: await actorName(scope, a.by),
        block: a.block,
        reason: a.reason,
        changes: changesOf(a.changes, a.previous),
      })),
    ),
    addenda: await Promise.all(
      doc.addenda.map(async (a) => ({ at: a.at, by: await actorName(scope, a.by), reason: a.reason, text: a.text })),
    ),
  };
}
