// The patient read model: one document per patient, folded from its stream. The fold is pure, so the
// projection and the read-your-writes fallback (folding the stream directly) build the same document.
// Documents and entries are built by one literal each, every key present (optional ones as undefined):
// one hidden class per kind instead of one per object (what spreading then extending gives in V8), and
// one copy of the document per event.
import type { PatientEvent, VascularAccessCreatedData } from '../../commands/pacientes/patientEvents.js';
import {
  CORRECTABLE_FIELDS,
  type AccessSide,
  type AccessStatus,
  type AccessType,
  type AllergyEntry,
  type CoverageEntry,
  type DemographicsPatch,
  type IsoDate,
  type Isolation,
  type PatientDemographics,
  type PatientStatus,
  type SerologyEntry,
} from '../../commands/pacientes/patientTypes.js';
import { sharedString, type ProjectedDoc } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { searchTextOf, sortNameOf } from './searchText.js';

type Stamp = { recordedAt: string; recordedBy: string };

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
type DryWeightEntry = { dryWeightKg: number; effectiveDate: IsoDate; prescribedBy?: string } & Stamp;

/** The document without the projection's bookkeeping (what the fold builds). */
export type PatientRecord = PatientDemographics & {
  tenantId: string;
  id: string;
  /** Revision of the patient stream: the ETag. */
  revision: number;
  status: PatientStatus;
  statusReason?: string;
  statusDate: IsoDate;
  dryWeightKg?: number;
  dryWeightHistory: DryWeightEntry[];
  serology: (SerologyEntry & Stamp)[];
  isolation: Isolation[];
  allergies: (AllergyEntry & Stamp)[];
  coverages: CoverageView[];
  vascularAccesses: VascularAccessView[];
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  /** Internal: normalised names and document for search, and the name sort key. */
  searchText: string;
  sortName: string;
};

export type PatientDoc = ProjectedDoc & PatientRecord;

/** Every key listed: adding a field to a type makes its builder below fail to compile until it copies it. */
type AllKeys<T> = { [K in keyof Required<T>]: T[K] };

/** The patient id of a stream `<tenant>.patient-<id>`. */
export const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

type Demographics = AllKeys<PatientDemographics>;
type Tracking = AllKeys<Omit<PatientRecord, keyof PatientDemographics>>;

/** A fresh document: demographics from `d`, the rest from `p` (the fold then sets what the event changes). */
function patientDoc(d: PatientDemographics, p: Omit<PatientRecord, keyof PatientDemographics>, position: number): PatientDoc {
  const doc: Demographics & Tracking & { _position: number } = {
    tenantId: p.tenantId,
    id: p.id,
    revision: p.revision,
    _position: position,
    documentType: d.documentType,
    documentNumber: d.documentNumber,
    givenNames: d.givenNames,
    familyNames: d.familyNames,
    sex: d.sex,
    birthDate: d.birthDate,
    contact: d.contact,
    address: d.address,
    emergencyContact: d.emergencyContact,
    bloodGroup: d.bloodGroup,
    rhFactor: d.rhFactor,
    admissionDate: d.admissionDate,
    dialysisStartDate: d.dialysisStartDate,
    etiology: d.etiology,
    comorbidities: d.comorbidities,
    status: p.status,
    statusReason: p.statusReason,
    statusDate: p.statusDate,
    dryWeightKg: p.dryWeightKg,
    dryWeightHistory: p.dryWeightHistory,
    serology: p.serology,
    isolation: p.isolation,
    allergies: p.allergies,
    coverages: p.coverages,
    vascularAccesses: p.vascularAccesses,
    createdAt: p.createdAt,
    createdBy: p.createdBy,
    updatedAt: p.updatedAt,
    updatedBy: p.updatedBy,
    searchText: p.searchText,
    sortName: p.sortName,
  };
  return doc;
}

const dryWeightEntry = (dryWeightKg: number, effectiveDate: IsoDate, prescribedBy: string | undefined, s: Stamp): DryWeightEntry => {
  const entry: AllKeys<DryWeightEntry> = {
    dryWeightKg,
    effectiveDate,
    prescribedBy: prescribedBy || undefined,
    recordedAt: s.recordedAt,
    recordedBy: s.recordedBy,
  };
  return entry;
};

function serologyEntry(e: SerologyEntry, s: Stamp): SerologyEntry & Stamp {
  const entry: AllKeys<SerologyEntry & Stamp> = {
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

function allergyEntry(e: AllergyEntry, s: Stamp): AllergyEntry & Stamp {
  const entry: AllKeys<AllergyEntry & Stamp> = {
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

function coverageEntry(e: CoverageEntry, s: Stamp, end: Pick<CoverageView, 'status' | 'endDate' | 'endReason'>): CoverageView {
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
function accessEntry(a: AccessFields, s: Stamp): VascularAccessView {
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

function registered(recorded: RecordedEvent, data: Extract<PatientEvent, { type: 'PatientRegistered' }>['data'], s: Stamp): PatientDoc {
  const tracking: Tracking = {
    tenantId: sharedString(recorded.streamName.slice(0, recorded.streamName.indexOf('.'))),
    id: data.patientId,
    revision: recorded.revision,
    status: data.status,
    statusReason: undefined,
    statusDate: data.admissionDate,
    dryWeightKg: data.dryWeightKg,
    dryWeightHistory: data.dryWeightKg !== undefined ? [dryWeightEntry(data.dryWeightKg, data.admissionDate, undefined, s)] : [],
    serology: data.serology.map((e) => serologyEntry(e, s)),
    isolation: data.isolation,
    allergies: data.allergies.map((e) => allergyEntry(e, s)),
    coverages: data.coverages.map((e) => coverageEntry(e, s, { status: 'active' })),
    vascularAccesses: [],
    createdAt: s.recordedAt,
    createdBy: s.recordedBy,
    updatedAt: s.recordedAt,
    updatedBy: s.recordedBy,
    searchText: searchTextOf(data),
    sortName: sortNameOf(data),
  };
  return patientDoc(data, tracking, Number(recorded.position));
}

/** A correction: null clears a field; the search keys are recomputed only when a name or the document changed. */
function correct(doc: PatientDoc, changes: DemographicsPatch): void {
  const target = doc as unknown as Record<string, unknown>;
  for (const field of CORRECTABLE_FIELDS) if (field in changes) target[field] = changes[field] ?? undefined;
  if ('givenNames' in changes || 'familyNames' in changes || 'documentNumber' in changes) {
    doc.searchText = searchTextOf(doc);
    doc.sortName = sortNameOf(doc);
  }
}

/** Applies one patient event; null `doc` only for PatientRegistered (anything else before it is ignored). */
export function foldPatient(doc: PatientDoc | null, recorded: RecordedEvent): PatientDoc | null {
  const event = recorded as unknown as PatientEvent;
  const s: Stamp = { recordedAt: recorded.metadata.occurredAt, recordedBy: sharedString(recorded.metadata.actor) };
  if (event.type === 'PatientRegistered') return doc ?? registered(recorded, event.data, s);
  if (!doc) return null;
  const next = patientDoc(doc, doc, Number(recorded.position));
  next.revision = recorded.revision;
  next.updatedAt = s.recordedAt;
  next.updatedBy = s.recordedBy;
  switch (event.type) {
    case 'PatientDataCorrected':
      correct(next, event.data.changes);
      break;
    case 'PatientStatusChanged':
      next.status = event.data.status;
      next.statusReason = event.data.reason;
      next.statusDate = event.data.effectiveDate;
      break;
    case 'DryWeightPrescribed': {
      const { dryWeightKg, effectiveDate, prescribedBy } = event.data;
      next.dryWeightKg = dryWeightKg;
      next.dryWeightHistory = [...doc.dryWeightHistory, dryWeightEntry(dryWeightKg, effectiveDate, prescribedBy, s)];
      break;
    }
    case 'SerologyRecorded':
      next.serology = [...doc.serology, serologyEntry(event.data, s)];
      break;
    case 'PatientIsolationChanged':
      next.isolation = event.data.isolation;
      break;
    case 'AllergyRecorded':
      next.allergies = [...doc.allergies, allergyEntry(event.data, s)];
      break;
    case 'CoverageAdded':
      next.coverages = [...doc.coverages, coverageEntry(event.data, s, { status: 'active' })];
      break;
    case 'CoverageEnded': {
      const { coverageId, endDate, reason } = event.data;
      next.coverages = doc.coverages.map((c) =>
        c.coverageId === coverageId ? coverageEntry(c, c, { status: 'ended', endDate, endReason: reason }) : c,
      );
      break;
    }
    case 'VascularAccessCreated': {
      const a = event.data;
      next.vascularAccesses = [
        ...doc.vascularAccesses,
        accessEntry({ ...a, statusDate: a.creationDate, statusReason: undefined, primary: false }, s),
      ];
      break;
    }
    case 'VascularAccessStatusChanged': {
      const { accessId, status, date, reason, firstCannulationDate } = event.data;
      next.vascularAccesses = doc.vascularAccesses.map((a) =>
        a.accessId !== accessId
          ? a
          : accessEntry(
              {
                ...a,
                status,
                statusDate: date,
                statusReason: reason || undefined,
                firstCannulationDate: firstCannulationDate || a.firstCannulationDate,
                primary: a.primary && status === 'active',
              },
              a,
            ),
      );
      break;
    }
    case 'VascularAccessPrimaryDesignated':
      next.vascularAccesses = doc.vascularAccesses.map((a) => accessEntry({ ...a, primary: a.accessId === event.data.accessId }, a));
      break;
  }
  return next;
}

/** What clients see: the document without its internal keys. */
export function patientView(doc: PatientDoc): Record<string, unknown> {
  const { tenantId: _t, _position, searchText: _s, sortName: _n, ...view } = doc;
  return view;
}
