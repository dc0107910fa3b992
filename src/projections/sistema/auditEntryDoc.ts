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
  /** One copy of an entry per patient it names (a scalar `patientId` SQL can index): the patient filter reads these. */
  byPatient: 'auditPatientEntries',
  /** Which patient (and company) a stream belongs to, learned from its events, for the events that do not say. */
  owners: 'auditStreamOwners',
} as const;

/** read: a route answered or refused (RecordAccessed); change: a record's event; account: sign-in and account events. */
export type AuditKind = 'read' | 'change' | 'account';

/** allowed: a read answered; succeeded: a change made; denied (403), not-found (404), failed (a wrong password or code). */
export type AuditOutcome = 'allowed' | 'succeeded' | 'denied' | 'not-found' | 'failed';

export interface AuditEntryDoc extends ProjectedDoc {
  /** The event id (the document's `id` is its zero-padded position, `<position>:<patient id>` on a copy per patient). */
  entryId: string;
  /** ISO-8601 UTC: when it happened (a read's first time when repeated reads were folded into one entry). */
  at: string;
  /**
   * `at` again, as the key of the unfiltered time index: a field of its own, so that a filtered query's time range (on
   * `at`) never draws SQLite (planning without statistics) to that index instead of the filter's.
   */
  t: string;
  /** Global position of its event. */
  seq: number;
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
  /** Present on the per-patient copies only. */
  patientId?: string;
}

export interface StreamOwnerDoc extends ProjectedDoc {
  patientId: string | null;
  companyId: string | null;
}

const byTime = { at: -1, seq: -1, id: -1 } as const;
const filtered = (field: string, name: string): IndexSpec => ({ keys: { [field]: 1, ...byTime }, name });
/** The order of a query with no equality filter (see `t`). */
export const UNFILTERED_ORDER = { t: -1, seq: -1, id: -1 } as const;
/** The order of a filtered one: ties in time (the same millisecond) in log order. */
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
