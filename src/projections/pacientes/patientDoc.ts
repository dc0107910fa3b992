// The patient read model: one document per patient, folded from its stream. The fold is pure, so the
// projection and the read-your-writes fallback (folding the stream directly) build the same document.
// Documents and entries are built by one literal each, every key present (optional ones as undefined):
// one hidden class per kind instead of one per object (what spreading then extending gives in V8), and
// one copy of the document per event.
import type { PatientEvent } from '../../commands/pacientes/patientEvents.js';
import {
  CORRECTABLE_FIELDS,
  type DemographicsPatch,
  type IsoDate,
  type Isolation,
  type PatientDemographics,
  type PatientStatus,
} from '../../commands/pacientes/patientTypes.js';
import { sharedString, type ProjectedDoc } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { searchTextOf, sortNameOf } from './searchText.js';
import {
  accessEntry,
  allergyEntry,
  capped,
  coverageEntry,
  dryWeightEntry,
  entryChangesOf,
  PATIENT_LISTS,
  serologyEntry,
  type EntryChange,
  type EntryCounts,
  type PatientLists,
  type Stamp,
} from './patientEntries.js';

/** The document without the projection's bookkeeping (what the fold builds). */
export type PatientRecord = PatientDemographics &
  PatientLists & {
    tenantId: string;
    id: string;
    /** Revision of the patient stream: the ETag. */
    revision: number;
    status: PatientStatus;
    statusReason?: string;
    statusDate: IsoDate;
    dryWeightKg?: number;
    isolation: Isolation[];
    /** How many entries each list holds in all; the lists keep at most LIMITS.patientRecord of them. */
    entryCounts: EntryCounts;
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
    entryCounts: p.entryCounts,
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
    entryCounts: { dryWeightHistory: 0, serology: 0, allergies: 0, coverages: 0, vascularAccesses: 0 },
    createdAt: s.recordedAt,
    createdBy: s.recordedBy,
    updatedAt: s.recordedAt,
    updatedBy: s.recordedBy,
    searchText: searchTextOf(data),
    sortName: sortNameOf(data),
  };
  const doc = patientDoc(data, tracking, Number(recorded.position));
  doc.entryCounts = countsOf(doc);
  return doc;
}

/** Every list's length: right after registration, and after one event (which appends at most one entry) plus the appended. */
const countsOf = (doc: PatientLists): EntryCounts => {
  const counts: AllKeys<EntryCounts> = {
    dryWeightHistory: doc.dryWeightHistory.length,
    serology: doc.serology.length,
    allergies: doc.allergies.length,
    coverages: doc.coverages.length,
    vascularAccesses: doc.vascularAccesses.length,
  };
  return counts;
};

/** A correction: null clears a field; the search keys are recomputed only when a name or the document changed. */
function correct(doc: PatientDoc, changes: DemographicsPatch): void {
  const target = doc as unknown as Record<string, unknown>;
  for (const field of CORRECTABLE_FIELDS) if (field in changes) target[field] = changes[field] ?? undefined;
  if ('givenNames' in changes || 'familyNames' in changes || 'documentNumber' in changes) {
    doc.searchText = searchTextOf(doc);
    doc.sortName = sortNameOf(doc);
  }
}

/**
 * Applies one patient event with its lists uncapped: what it appended is at the end of each list, and `entryCounts`
 * counts it. `changes` are what it changes in existing entries (also those the document no longer keeps).
 */
export function applyPatientEvent(doc: PatientDoc | null, recorded: RecordedEvent): { next: PatientDoc | null; changes: EntryChange[] } {
  const event = recorded as unknown as PatientEvent;
  const s: Stamp = { recordedAt: recorded.metadata.occurredAt, recordedBy: sharedString(recorded.metadata.actor) };
  if (event.type === 'PatientRegistered') return { next: doc ?? registered(recorded, event.data, s), changes: [] };
  if (!doc) return { next: null, changes: [] };
  const next = patientDoc(doc, doc, Number(recorded.position));
  next.revision = recorded.revision;
  next.updatedAt = s.recordedAt;
  next.updatedBy = s.recordedBy;
  const changes = entryChangesOf(event);
  for (const change of changes) {
    if (change.list === 'coverages') next.coverages = next.coverages.map((c) => (c.coverageId === change.key ? change.apply(c) : c));
    else next.vascularAccesses = next.vascularAccesses.map((a) => (a.accessId === change.key ? change.apply(a) : a));
  }
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
      // The current dry weight is the one in force today (the latest effective; none is future-dated): a back-dated one
      // (a prescription's validFrom) does not replace a later one (issue 21 item 4).
      const later = doc.dryWeightHistory.some((w) => w.effectiveDate > effectiveDate);
      if (!later) next.dryWeightKg = dryWeightKg;
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
    case 'VascularAccessCreated': {
      const a = event.data;
      next.vascularAccesses = [
        ...doc.vascularAccesses,
        accessEntry({ ...a, statusDate: a.creationDate, statusReason: undefined, primary: false }, s),
      ];
      break;
    }
  }
  const appended = countsOf(next);
  const before = countsOf(doc);
  next.entryCounts = { ...doc.entryCounts };
  for (const list of PATIENT_LISTS) next.entryCounts[list] += appended[list] - before[list];
  return { next, changes };
}

/** The document with its lists within their caps (a fresh document from applyPatientEvent: changed in place). */
export function withCappedLists(doc: PatientDoc): PatientDoc {
  doc.dryWeightHistory = capped('dryWeightHistory', doc.dryWeightHistory);
  doc.serology = capped('serology', doc.serology);
  doc.allergies = capped('allergies', doc.allergies);
  doc.coverages = capped('coverages', doc.coverages);
  doc.vascularAccesses = capped('vascularAccesses', doc.vascularAccesses);
  return doc;
}

/** Applies one patient event; null `doc` only for PatientRegistered (anything else before it is ignored). */
export function foldPatient(doc: PatientDoc | null, recorded: RecordedEvent): PatientDoc | null {
  const { next } = applyPatientEvent(doc, recorded);
  return next && next !== doc ? withCappedLists(next) : next;
}

/** What clients see: the document without its internal keys. */
export function patientView(doc: PatientDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, searchText: _s, sortName: _n, ...view } = doc;
  return view;
}
