// The entries of a patient's lists (dry weights, serology, allergies, coverages, vascular accesses): one literal
// builder per kind, the changes later events make to an entry, and the caps that keep the patient document bounded
// (every entry stays in the entries collection, patientListDocs.ts, and in the record's history).
import type { PatientEvent, VascularAccessCreatedData } from '../../commands/pacientes/patientEvents.js';
import type {
  AccessSide,
  AccessStatus,
  AccessType,
  AllergyEntry,
  CoverageEntry,
  IsoDate,
  SerologyEntry,
} from '../../commands/pacientes/patientTypes.js';
import { LIMITS } from '../../limits.js';

export type Stamp = { recordedAt: string; recordedBy: string };

export type VascularAccessView = {
  accessId: string;
  type: AccessType;
  side: AccessSide;
  site: string;
  creationDate: IsoDate;
  surgeon?: string;
  institution?: string;
  firstCannulationDate?: IsoDate;
  status: AccessStatus;
  statusDate: IsoDate;
  statusReason?: string;
  primary: boolean;
} & Stamp;

export type CoverageView = CoverageEntry & Stamp & { status: 'active' | 'ended'; endDate?: IsoDate; endReason?: string };
export type DryWeightEntry = { dryWeightKg: number; effectiveDate: IsoDate; prescribedBy?: string } & Stamp;
export type SerologyView = SerologyEntry & Stamp;
export type AllergyView = AllergyEntry & Stamp;

/** The lists of a patient document, each capped at LIMITS.patientRecord[list]. */
export const PATIENT_LISTS = ['dryWeightHistory', 'serology', 'allergies', 'coverages', 'vascularAccesses'] as const;
export type PatientList = (typeof PATIENT_LISTS)[number];
export type PatientLists = {
  dryWeightHistory: DryWeightEntry[];
  serology: SerologyView[];
  allergies: AllergyView[];
  coverages: CoverageView[];
  vascularAccesses: VascularAccessView[];
};
export type ListEntry = PatientLists[PatientList][number];
/** How many entries each list holds in all, kept in the document or not. */
export type EntryCounts = Record<PatientList, number>;

/** Every key listed: adding a field to a type makes its builder below fail to compile until it copies it. */
type AllKeys<T> = { [K in keyof Required<T>]: T[K] };

export const dryWeightEntry = (dryWeightKg: number, effectiveDate: IsoDate, prescribedBy: string | undefined, s: Stamp): DryWeightEntry => {
  const entry: AllKeys<DryWeightEntry> = {
    dryWeightKg,
    effectiveDate,
    prescribedBy: prescribedBy || undefined,
    recordedAt: s.recordedAt,
    recordedBy: s.recordedBy,
  };
  return entry;
};

export function serologyEntry(e: SerologyEntry, s: Stamp): SerologyView {
  const entry: AllKeys<SerologyView> = {
    test: e.test,
    result: e.result,
    sampleDate: e.sampleDate,
    titer: e.titer,
    laboratory: e.laboratory,
    recordedAt: s.recordedAt,
    recordedBy: s.recordedBy,
  };
  return entry;
}

export function allergyEntry(e: AllergyEntry, s: Stamp): AllergyView {
  const entry: AllKeys<AllergyView> = {
    allergyId: e.allergyId,
    substance: e.substance,
    reaction: e.reaction,
    severity: e.severity,
    notedDate: e.notedDate,
    recordedAt: s.recordedAt,
    recordedBy: s.recordedBy,
  };
  return entry;
}

export function coverageEntry(e: CoverageEntry, s: Stamp, end: Pick<CoverageView, 'status' | 'endDate' | 'endReason'>): CoverageView {
  const entry: AllKeys<CoverageView> = {
    coverageId: e.coverageId,
    clientId: e.clientId,
    payerName: e.payerName,
    memberNumber: e.memberNumber,
    plan: e.plan,
    validFrom: e.validFrom,
    validTo: e.validTo,
    authorizationCode: e.authorizationCode,
    recordedAt: s.recordedAt,
    recordedBy: s.recordedBy,
    status: end.status,
    endDate: end.endDate,
    endReason: end.endReason,
  };
  return entry;
}

type AccessFields = Omit<VascularAccessCreatedData, 'status'> &
  Pick<VascularAccessView, 'status' | 'statusDate' | 'statusReason' | 'primary'>;
export function accessEntry(a: AccessFields, s: Stamp): VascularAccessView {
  const entry: AllKeys<VascularAccessView> = {
    accessId: a.accessId,
    type: a.type,
    side: a.side,
    site: a.site,
    creationDate: a.creationDate,
    surgeon: a.surgeon,
    institution: a.institution,
    firstCannulationDate: a.firstCannulationDate,
    status: a.status,
    statusDate: a.statusDate,
    statusReason: a.statusReason,
    primary: a.primary,
    recordedAt: s.recordedAt,
    recordedBy: s.recordedBy,
  };
  return entry;
}

/** What a later event changes in one coverage or access, wherever that entry is kept (document or entries collection). */
export type EntryChange =
  | { list: 'coverages'; key: string; apply: (c: CoverageView) => CoverageView }
  | { list: 'vascularAccesses'; key: string; apply: (a: VascularAccessView) => VascularAccessView };

/** The changes an event makes to existing coverages or accesses (none for other events). */
export function entryChangesOf(event: PatientEvent): EntryChange[] {
  switch (event.type) {
    case 'CoverageEnded': {
      const { coverageId, endDate, reason } = event.data;
      return [{ list: 'coverages', key: coverageId, apply: (c) => coverageEntry(c, c, { status: 'ended', endDate, endReason: reason }) }];
    }
    case 'VascularAccessStatusChanged': {
      const { accessId, status, date, reason, firstCannulationDate } = event.data;
      const apply = (a: VascularAccessView): VascularAccessView =>
        accessEntry(
          {
            ...a,
            status,
            statusDate: date,
            statusReason: reason || undefined,
            firstCannulationDate: firstCannulationDate || a.firstCannulationDate,
            primary: a.primary && status === 'active',
          },
          a,
        );
      return [{ list: 'vascularAccesses', key: accessId, apply }];
    }
    case 'VascularAccessPrimaryDesignated': {
      const { accessId, previousAccessId } = event.data;
      const primary = (value: boolean) => (a: VascularAccessView) => accessEntry({ ...a, primary: value }, a);
      const changes: EntryChange[] = [{ list: 'vascularAccesses', key: accessId, apply: primary(true) }];
      if (previousAccessId && previousAccessId !== accessId)
        changes.push({ list: 'vascularAccesses', key: previousAccessId, apply: primary(false) });
      return changes;
    }
    default:
      return [];
  }
}

/** The natural key of an entry that later events change; null for entries that never change. */
export function keyOf(list: PatientList, entry: ListEntry): string | null {
  if (list === 'coverages') return (entry as CoverageView).coverageId;
  if (list === 'vascularAccesses') return (entry as VascularAccessView).accessId;
  if (list === 'allergies') return (entry as AllergyView).allergyId;
  return null;
}

/** An entry no event will change again: the first to leave a full list. */
function settled(list: PatientList, entry: ListEntry): boolean {
  if (list === 'coverages') return (entry as CoverageView).status === 'ended';
  if (list === 'vascularAccesses') return ['failed', 'removed'].includes((entry as VascularAccessView).status);
  return true;
}

/** The list within its cap: settled entries leave first, oldest first; then the oldest. Order is kept. */
export function capped<L extends PatientList>(list: L, entries: PatientLists[L]): PatientLists[L] {
  const cap = LIMITS.patientRecord[list];
  if (entries.length <= cap) return entries;
  const leaving = new Set<ListEntry>();
  for (const entry of entries) if (leaving.size < entries.length - cap && settled(list, entry)) leaving.add(entry);
  for (const entry of entries) if (leaving.size < entries.length - cap) leaving.add(entry);
  return entries.filter((e) => !leaving.has(e)) as PatientLists[L];
}
