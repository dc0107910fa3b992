// Small per-item documents the payer and staff widgets list by date: an authorization's units left and last day, a
// staff member's licence expiry (only while the staff member is active), each indexed on the date it falls due.
import type { AuthorizationEvent } from '../../commands/clientes/authorizationEvents.js';
import type { StaffEvent } from '../../commands/colaboradores/staffEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

/** Units left at or below this many, or at or below this share of those authorized: nearly exhausted. */
export const LOW_UNITS = 2;
export const LOW_SHARE = 0.1;
export const isLowOn = (remaining: number, authorized: number): boolean => remaining <= LOW_UNITS || remaining <= authorized * LOW_SHARE;

export type AuthorizationWatchDoc = ProjectedDoc & {
  clientId: string;
  patientId: string;
  code: string;
  validFrom: string;
  validTo: string;
  authorized: number;
  used: number;
  remaining: number;
  /** 1 when nearly exhausted (or exhausted): the low-units index leads with it. */
  low: 0 | 1;
};

function withUnits(doc: AuthorizationWatchDoc, used: number, remaining: number, position: number): AuthorizationWatchDoc {
  return { ...doc, used, remaining, low: isLowOn(remaining, doc.authorized) ? 1 : 0, _position: position };
}

/** A voided authorization leaves the watch list (null deletes it). */
export function foldAuthorizationWatch(doc: AuthorizationWatchDoc | null, recorded: RecordedEvent): AuthorizationWatchDoc | null {
  const event = recorded as unknown as AuthorizationEvent;
  const position = Number(recorded.position);
  if (event.type === 'AuthorizationIssued') {
    if (doc) return doc;
    const { clientId, patientId, code, validFrom, validTo, sessionsAuthorized } = event.data;
    const fresh = {
      tenantId: tenantOfStream(recorded.streamName),
      id: aggregateIdOfStream(recorded.streamName),
      clientId,
      patientId,
      code,
      validFrom,
      validTo,
      authorized: sessionsAuthorized,
      _position: position,
    };
    return withUnits({ ...fresh, used: 0, remaining: sessionsAuthorized, low: 0 }, 0, sessionsAuthorized, position);
  }
  if (!doc) return null;
  switch (event.type) {
    case 'AuthorizationConsumed':
    case 'AuthorizationReleased':
      return withUnits(doc, event.data.used, event.data.remaining, position);
    case 'AuthorizationReserved':
      return withUnits(doc, doc.used, event.data.remaining, position);
    case 'AuthorizationVoided':
      return null;
    default:
      return doc;
  }
}

export type LicenceWatchDoc = ProjectedDoc & {
  givenNames: string;
  familyNames: string;
  body: string | null;
  number: string | null;
  expiresOn: string | null;
  active: boolean;
  /** The licence expiry while the staff member is active, else null: what the expiry index ranges over. */
  watchOn: string | null;
};

const watched = (doc: LicenceWatchDoc | Omit<LicenceWatchDoc, 'watchOn'>): LicenceWatchDoc =>
  ({ ...doc, watchOn: doc.active ? doc.expiresOn : null }) as LicenceWatchDoc;

export function foldLicenceWatch(doc: LicenceWatchDoc | null, recorded: RecordedEvent): LicenceWatchDoc | null {
  const event = recorded as unknown as StaffEvent;
  const _position = Number(recorded.position);
  if (event.type === 'StaffHired') {
    if (doc) return doc;
    const { givenNames, familyNames } = event.data;
    const id = aggregateIdOfStream(recorded.streamName);
    const fresh = { tenantId: tenantOfStream(recorded.streamName), id, givenNames, familyNames, _position };
    return watched({ ...fresh, body: null, number: null, expiresOn: null, active: true });
  }
  if (!doc) return null;
  switch (event.type) {
    case 'StaffLicenseRegistered':
    case 'StaffLicenseRenewed':
      return watched({ ...doc, body: event.data.body, number: event.data.number, expiresOn: event.data.expiresOn, _position });
    case 'StaffDataCorrected': {
      const { givenNames = doc.givenNames, familyNames = doc.familyNames } = event.data.changes;
      return watched({ ...doc, givenNames, familyNames, _position });
    }
    case 'StaffTerminated':
      return watched({ ...doc, active: false, _position });
    case 'StaffRehired':
      return watched({ ...doc, active: true, _position });
    default:
      return doc;
  }
}

/** Per last day of validity: how many watched authorizations end that day, how many are low, how many exhausted. */
export type AuthorizationDayDoc = ProjectedDoc & { day: string; count: number; low: number; exhausted: number };

/** The day's counters with one authorization's membership moved from `was` to `now` (either absent: not counted). */
export function moveAuthorizationDay(
  doc: AuthorizationDayDoc,
  was: AuthorizationWatchDoc | null,
  now: AuthorizationWatchDoc | null,
  position: number,
): AuthorizationDayDoc {
  const weight = (d: AuthorizationWatchDoc | null) => (d ? [1, d.low, d.remaining === 0 ? 1 : 0] : [0, 0, 0]);
  const [c0, l0, e0] = weight(was);
  const [c1, l1, e1] = weight(now);
  return {
    ...doc,
    count: doc.count + c1! - c0!,
    low: doc.low + l1! - l0!,
    exhausted: doc.exhausted + e1! - e0!,
    _position: position,
  };
}
