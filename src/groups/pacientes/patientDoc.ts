// The patient read model: one document per patient, folded from its stream. The fold is pure, so the
// projection and the read-your-writes fallback (folding the stream directly) build the same document.
import type { PatientEvent } from '../../domain/pacientes/patientEvents.js';
import type {
  AccessSide, AccessStatus, AccessType, AllergyEntry, CoverageEntry, IsoDate, Isolation, PatientDemographics,
  PatientStatus, SerologyEntry,
} from '../../domain/pacientes/patientTypes.js';
import { applyPatch } from '../../domain/pacientes/patientState.js';
import type { ProjectedDoc } from '../../projections/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { searchTextOf, sortNameOf } from './searchText.js';

type Stamp = { recordedAt: string; recordedBy: string };

export type VascularAccessView = {
  accessId: string; type: AccessType; side: AccessSide; site: string; creationDate: IsoDate; surgeon?: string; institution?: string;
  firstCannulationDate?: IsoDate; status: AccessStatus; statusDate: IsoDate; statusReason?: string; primary: boolean;
} & Stamp;

export type CoverageView = CoverageEntry & Stamp & { status: 'active' | 'ended'; endDate?: IsoDate; endReason?: string };

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
  dryWeightHistory: ({ dryWeightKg: number; effectiveDate: IsoDate; prescribedBy?: string } & Stamp)[];
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

/** The patient id of a stream `<tenant>.patient-<id>`. */
export const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);

function withSearch(doc: PatientRecord): PatientRecord {
  return { ...doc, searchText: searchTextOf(doc), sortName: sortNameOf(doc) };
}

function updateAccess(doc: PatientDoc, accessId: string, change: (a: VascularAccessView) => VascularAccessView): VascularAccessView[] {
  return doc.vascularAccesses.map((a) => (a.accessId === accessId ? change(a) : a));
}

/** Applies one patient event; null `doc` only for PatientRegistered (anything else before it is ignored). */
export function foldPatient(doc: PatientDoc | null, recorded: RecordedEvent): PatientRecord | null {
  const event = { type: recorded.type, data: recorded.data } as PatientEvent;
  const stamp: Stamp = { recordedAt: recorded.metadata.occurredAt, recordedBy: recorded.metadata.actor };
  if (event.type === 'PatientRegistered') {
    if (doc) return doc;
    const { patientId, allergies, serology, coverages, ...rest } = event.data;
    return withSearch({
      ...rest,
      tenantId: recorded.streamName.slice(0, recorded.streamName.indexOf('.')),
      id: patientId,
      revision: recorded.revision,
      statusDate: rest.admissionDate,
      dryWeightHistory: rest.dryWeightKg !== undefined ? [{ dryWeightKg: rest.dryWeightKg, effectiveDate: rest.admissionDate, ...stamp }] : [],
      serology: serology.map((s) => ({ ...s, ...stamp })),
      allergies: allergies.map((a) => ({ ...a, ...stamp })),
      coverages: coverages.map((c) => ({ ...c, ...stamp, status: 'active' })),
      vascularAccesses: [],
      createdAt: stamp.recordedAt,
      createdBy: stamp.recordedBy,
      updatedAt: stamp.recordedAt,
      updatedBy: stamp.recordedBy,
      searchText: '',
      sortName: '',
    });
  }
  if (!doc) return null;
  const { _position, ...current } = doc;
  const base: PatientRecord = { ...(current as PatientRecord), revision: recorded.revision, updatedAt: stamp.recordedAt, updatedBy: stamp.recordedBy };
  switch (event.type) {
    case 'PatientDataCorrected':
      return withSearch(applyPatch(base, event.data.changes));
    case 'PatientStatusChanged':
      return { ...base, status: event.data.status, statusReason: event.data.reason, statusDate: event.data.effectiveDate };
    case 'DryWeightPrescribed': {
      const { dryWeightKg, effectiveDate, prescribedBy } = event.data;
      const entry = { dryWeightKg, effectiveDate, ...(prescribedBy ? { prescribedBy } : {}), ...stamp };
      return { ...base, dryWeightKg, dryWeightHistory: [...base.dryWeightHistory, entry] };
    }
    case 'SerologyRecorded':
      return { ...base, serology: [...base.serology, { ...event.data, ...stamp }] };
    case 'PatientIsolationChanged':
      return { ...base, isolation: event.data.isolation };
    case 'AllergyRecorded':
      return { ...base, allergies: [...base.allergies, { ...event.data, ...stamp }] };
    case 'CoverageAdded':
      return { ...base, coverages: [...base.coverages, { ...event.data, ...stamp, status: 'active' }] };
    case 'CoverageEnded': {
      const { coverageId, endDate, reason } = event.data;
      const coverages = base.coverages.map((c) => (c.coverageId === coverageId ? { ...c, status: 'ended' as const, endDate, endReason: reason } : c));
      return { ...base, coverages };
    }
    case 'VascularAccessCreated': {
      const a = event.data;
      return { ...base, vascularAccesses: [...base.vascularAccesses, { ...a, statusDate: a.creationDate, primary: false, ...stamp }] };
    }
    case 'VascularAccessStatusChanged': {
      const { accessId, status, date, reason, firstCannulationDate } = event.data;
      const accesses = updateAccess(doc, accessId, (a) => {
        const { statusReason: _r, ...rest } = a;
        return {
          ...rest, status, statusDate: date, ...(reason ? { statusReason: reason } : {}),
          ...(firstCannulationDate ? { firstCannulationDate } : {}), primary: a.primary && status === 'active',
        };
      });
      return { ...base, vascularAccesses: accesses };
    }
    case 'VascularAccessPrimaryDesignated': {
      const accesses = doc.vascularAccesses.map((a) => ({ ...a, primary: a.accessId === event.data.accessId }));
      return { ...base, vascularAccesses: accesses };
    }
  }
}

/** What clients see: the document without its internal keys. */
export function patientView(doc: PatientDoc): Record<string, unknown> {
  const { tenantId: _t, _position, searchText: _s, sortName: _n, ...view } = doc;
  return view;
}
