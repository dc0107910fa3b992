// The audit trail's read model (issue 23 item 1): one entry per read, refusal, change and account event, with who, when,
// from where, what and the outcome, kept per company (and the platform's own), indexed for every filter an auditor uses.
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { NURSING_NOTE_CATEGORY } from '../../commands/pacientes/nursingNoteEvents.js';
import { SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { PRESCRIPTION_CATEGORY } from '../../commands/dialisis/prescription/prescriptionEvents.js';
import { SESSION_CONSEQUENCES_CATEGORY } from '../../commands/dialisis/consequences/consequenceEvents.js';
import { AUTHORIZATION_CATEGORY } from '../../commands/clientes/authorizationEvents.js';
import { DIALYZER_CATEGORY } from '../../commands/filtros-dialisis/dialyzerEvents.js';
import type { IndexSpec } from '../../stores/readStore.js';
import type { ProjectedDoc } from '../runner/projection.js';

export const AUDIT_TRAIL = {
  projection: 'auditTrail',
  /** One document per entry. */
  entries: 'auditEntries',
  /**
   * One slim row per patient an entry names (a scalar `patientId` SQL can index, beside the fields the other filters
   * compare): the patient filter pages these, then reads the entries they point to.
   */
  byPatient: 'auditPatientEntries',
  /** Which patient (and company) a stream belongs to, learned from its events, for the events that do not say. */
  owners: 'auditStreamOwners',
} as const;

/** read: a route answered or refused (RecordAccessed); change: a record's event; account: sign-in and account events. */
export type AuditKind = 'read' | 'change' | 'account';

/** allowed: a read answered; succeeded: a change made; denied (403), not-found (404), failed (a wrong password or code). */
export type AuditOutcome = 'allowed' | 'succeeded' | 'denied' | 'not-found' | 'failed';

/** An entry of the trail, whole: what the projection decides and the trail shows. */
export interface AuditEntry {
  /** The event id. */
  entryId: string;
  /** ISO-8601 UTC: when it happened (a read's first time when repeated reads were folded into one entry). */
  at: string;
  /** Global position of its event. */
  position: number;
  kind: AuditKind;
  /** The event type, or for a read `read` (GET) / `write` (a refused change). */
  action: string;
  outcome: AuditOutcome;
  /** User id or API client id ('system' for the service's own work, 'anonymous' before sign-in). */
  actor: string;
  sessionId: string | null;
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
  reason: string | null;
  /** Route template of a read (e.g. /pacientes/{id}), with its method and status; null for events. */
  route: string | null;
  method: string | null;
  status: number | null;
  /** The record: its type (stream category or the read's record type) and id. */
  recordType: string | null;
  recordId: string | null;
  patientIds: string[];
  /** Reads folded into this entry, and the time of the last one. */
  count: number;
  lastAt: string;
}

/** The fields an entry stores only when they say something: a null, no patient, one read, lastAt = at. */
type Sparse =
  | 'sessionId'
  | 'ip'
  | 'userAgent'
  | 'reason'
  | 'route'
  | 'method'
  | 'status'
  | 'recordType'
  | 'recordId'
  | 'patientIds'
  | 'count'
  | 'lastAt';

/**
 * An entry as stored (the document's `id` is its zero-padded log position): sparse, so the trail (a row per event of the
 * log, the largest read model) stores no nulls and no defaults.
 */
export type AuditEntryDoc = ProjectedDoc &
  Omit<AuditEntry, Sparse | 'position'> &
  Partial<{ [K in Sparse]: NonNullable<AuditEntry[K]> }> & {
    /**
     * `at` again, as the key of the unfiltered time index: a field of its own, so that a filtered query's time range (on
     * `at`) never draws SQLite (planning without statistics) to that index instead of the filter's.
     */
    t: string;
  };

/** The fields of an entry the trail's equality filters compare, besides the patient (a patient row carries them). */
const FILTERED = ['action', 'outcome', 'actor', 'route', 'recordType', 'recordId'] as const;

/** A patient's row of an entry (`<entry id>:<patient id>`): what the patient filter compares and orders by. */
export type AuditPatientRowDoc = ProjectedDoc &
  Pick<AuditEntryDoc, 'at' | (typeof FILTERED)[number]> & {
    patientId: string;
  };

/**
 * An entry's key: its log position, zero-padded, so a build appends to the key index in log order. Keyed by the event's
 * random id, every batch of a 10M-event build dirtied pages all over that index (28k rows/s at 3M rows against 100k).
 */
const entryKey = (position: number): string => String(position).padStart(20, '0');

/** The entry's document (keyed by its position): its whole self less what goes without saying. */
export function storedEntry(tenantId: string, entry: AuditEntry): AuditEntryDoc {
  const { position, count, lastAt, patientIds, ...rest } = entry;
  const doc: Record<string, unknown> = { tenantId, id: entryKey(position), t: entry.at, _position: position };
  for (const [field, value] of Object.entries(rest)) if (value !== null) doc[field] = value;
  if (patientIds.length > 0) doc.patientIds = patientIds;
  if (count !== 1) doc.count = count;
  if (lastAt !== entry.at) doc.lastAt = lastAt;
  return doc as AuditEntryDoc;
}

/** A patient's row of a stored entry. */
export function patientRow(doc: AuditEntryDoc, patientId: string): AuditPatientRowDoc {
  const row: Record<string, unknown> = { tenantId: doc.tenantId, id: `${doc.id}:${patientId}`, patientId, at: doc.at };
  for (const field of FILTERED) if (doc[field] !== undefined) row[field] = doc[field];
  row._position = doc._position;
  return row as AuditPatientRowDoc;
}

/** The key of the entry a patient row points to. */
export const entryKeyOfRow = (row: Pick<AuditPatientRowDoc, 'id'>): string => row.id.slice(0, row.id.indexOf(':'));

/** The whole entry of a stored one. */
export const entryOf = (d: AuditEntryDoc): AuditEntry => ({
  entryId: d.entryId,
  at: d.at,
  position: d._position,
  kind: d.kind,
  action: d.action,
  outcome: d.outcome,
  actor: d.actor,
  sessionId: d.sessionId ?? null,
  ip: d.ip ?? null,
  userAgent: d.userAgent ?? null,
  correlationId: d.correlationId,
  reason: d.reason ?? null,
  route: d.route ?? null,
  method: d.method ?? null,
  status: d.status ?? null,
  recordType: d.recordType ?? null,
  recordId: d.recordId ?? null,
  patientIds: d.patientIds ?? [],
  count: d.count ?? 1,
  lastAt: d.lastAt ?? d.at,
});

export interface StreamOwnerDoc extends ProjectedDoc {
  patientId: string | null;
  companyId: string | null;
}

// Ties in time (the same millisecond) in log order: the key is the zero-padded position (a patient row's begins with it).
const byTime = { at: -1, id: -1 } as const;
const filtered = (field: string, name: string): IndexSpec => ({ keys: { [field]: 1, ...byTime }, name });
/** The order of a query with no equality filter (see `t`). */
export const UNFILTERED_ORDER = { t: -1, id: -1 } as const;
/** The order of a filtered one. */
export const FILTERED_ORDER = byTime;

export const AUDIT_COLLECTIONS: Record<string, IndexSpec[]> = {
  [AUDIT_TRAIL.owners]: [],
  [AUDIT_TRAIL.entries]: [
    { keys: UNFILTERED_ORDER, name: 'by_time' },
    filtered('actor', 'by_actor'),
    filtered('action', 'by_action'),
    filtered('outcome', 'by_outcome'),
    filtered('route', 'by_route'),
    { keys: { recordType: 1, recordId: 1, ...byTime }, name: 'by_record' },
  ],
  [AUDIT_TRAIL.byPatient]: [filtered('patientId', 'by_patient')],
};

/** Asked by key or always with a patient: no list reads them by `updatedSince` alone (no stamp index). */
export const AUDIT_UNSTAMPED = [AUDIT_TRAIL.owners, AUDIT_TRAIL.byPatient];

/** Streams whose every event belongs to the one patient their first events name (the trail remembers the owner). */
export const PATIENT_RECORDS = new Set([
  PATIENT_CATEGORY,
  NURSING_NOTE_CATEGORY,
  SESSION_CATEGORY,
  PRESCRIPTION_CATEGORY,
  SESSION_CONSEQUENCES_CATEGORY,
  AUTHORIZATION_CATEGORY,
  DIALYZER_CATEGORY,
]);
