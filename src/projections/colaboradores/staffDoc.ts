// The staff read model: one document per staff record, folded from its stream. Pure, so the projection and the
// read-your-writes fallback (folding the stream directly) build the same document.
import type { StaffEvent } from '../../commands/colaboradores/staffEvents.js';
import type { HbvDose, IsoDate, Licence, StaffPersonal, StaffSerology, StaffStatus } from '../../commands/colaboradores/staffTypes.js';
import { LIMITS } from '../../limits.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export type StaffDoc = ProjectedDoc &
  StaffPersonal & {
    /** Revision of the staff stream: the ETag. */
    revision: number;
    positionId: string;
    status: StaffStatus;
    licence?: Licence;
    /** The latest entries (LIMITS.staffRecord); the counts tell how many there are in all. */
    serology: StaffSerology[];
    hbvVaccination: HbvDose[];
    serologyCount: number;
    vaccinationCount: number;
    userId?: string;
    terminationDate?: IsoDate;
    terminationReason?: string;
    createdAt: string;
    createdBy: string;
    updatedAt: string;
    updatedBy: string;
    /** Internal: name sort key, and the licence expiry as a top-level key (filtered and indexed). */
    sortName: string;
    licenceExpiresOn: IsoDate | null;
  };

const idOfStream = (stream: string): string => stream.slice(stream.indexOf('-') + 1);
const sortNameOf = (p: Pick<StaffPersonal, 'givenNames' | 'familyNames'>): string =>
  `${p.familyNames} ${p.givenNames}`.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const latest = <T>(list: T[], max: number): T[] => (list.length > max ? list.slice(list.length - max) : list);

function corrected(doc: StaffDoc, changes: Record<string, unknown>): StaffDoc {
  const next: Record<string, unknown> = { ...doc };
  for (const [field, value] of Object.entries(changes)) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return { ...(next as StaffDoc), sortName: sortNameOf(next as StaffDoc) };
}

function applyStaffEvent(doc: StaffDoc, event: StaffEvent): StaffDoc {
  switch (event.type) {
    case 'StaffHired':
      return doc;
    case 'StaffDataCorrected':
      return corrected(doc, event.data.changes);
    case 'StaffLicenseRegistered':
      return { ...doc, licence: event.data, licenceExpiresOn: event.data.expiresOn };
    case 'StaffLicenseRenewed': {
      const { previous: _p, ...licence } = event.data;
      return { ...doc, licence, licenceExpiresOn: licence.expiresOn };
    }
    case 'StaffSerologyRecorded':
      return {
        ...doc,
        serology: latest([...doc.serology, event.data], LIMITS.staffRecord.serologyInline),
        serologyCount: doc.serologyCount + 1,
      };
    case 'StaffVaccinationRecorded':
      return {
        ...doc,
        hbvVaccination: latest([...doc.hbvVaccination, event.data], LIMITS.staffRecord.vaccinationInline),
        vaccinationCount: doc.vaccinationCount + 1,
      };
    case 'StaffPositionChanged':
      return { ...doc, positionId: event.data.positionId };
    case 'StaffLinkedToUser':
      return { ...doc, userId: event.data.userId };
    case 'StaffTerminated':
      return { ...doc, status: 'terminated', terminationDate: event.data.terminationDate, terminationReason: event.data.reason };
    case 'StaffRehired': {
      const { terminationDate: _d, terminationReason: _r, ...rest } = doc;
      return { ...rest, status: 'active', hireDate: event.data.hireDate, positionId: event.data.positionId };
    }
  }
}

export function foldStaff(doc: StaffDoc | null, recorded: RecordedEvent): StaffDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as StaffEvent;
  const stamp = {
    revision: recorded.revision,
    updatedAt: recorded.metadata.occurredAt,
    updatedBy: recorded.metadata.actor,
    _position: Number(recorded.position),
  };
  if (event.type === 'StaffHired') {
    if (doc) return doc;
    const { staffId: _id, serology, hbvVaccination, ...fields } = event.data;
    return {
      tenantId: tenantOfStream(recorded.streamName),
      id: idOfStream(recorded.streamName),
      ...fields,
      serology: latest(serology, LIMITS.staffRecord.serologyInline),
      hbvVaccination: latest(hbvVaccination, LIMITS.staffRecord.vaccinationInline),
      serologyCount: serology.length,
      vaccinationCount: hbvVaccination.length,
      createdAt: recorded.metadata.occurredAt,
      createdBy: recorded.metadata.actor,
      sortName: sortNameOf(fields),
      licenceExpiresOn: null,
      ...stamp,
    };
  }
  return doc ? { ...applyStaffEvent(doc, event), ...stamp } : null;
}

/** What clients see: the document without its internal keys. */
export function staffView(doc: StaffDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, sortName: _n, licenceExpiresOn: _l, ...view } = doc;
  return view;
}
