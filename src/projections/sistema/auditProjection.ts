// The audit trail projection: every event of the log becomes an entry of its company's trail (and platform events of the
// platform's), attributed to the patient it belongs to, so an auditor asks one indexed read model instead of the log.
import type { RecordedEvent } from '../../stores/eventStore.js';
import { aggregateIdOfStream, categoryOfStream, PLATFORM_TENANT, tenantOfStream } from '../../stores/eventStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import type { Projection, ProjectionTx } from '../runner/projection.js';
import {
  AUDIT_COLLECTIONS,
  AUDIT_TRAIL,
  AUDIT_UNSTAMPED,
  PATIENT_RECORDS,
  patientRow,
  storedEntry,
  type AuditEntry,
  type AuditOutcome,
  type StreamOwnerDoc,
} from './auditEntryDoc.js';

/** The platform's API client streams (src/commands/platform/apiClient: its decider names the category). */
const API_CLIENT_CATEGORY = 'apiClient';

/** Written by the access audit (src/http/accessAuditEvents.ts, which the read side may not import). */
const RECORD_ACCESSED = 'RecordAccessed';

/** Bookkeeping, not acts of anyone: a throttle's reservations, a session's activity stamps. */
const NOT_AUDITED = new Set(['LoginAttemptReserved', 'TotpAttemptReserved', 'ChallengeCodeAttemptReserved', 'SessionActivityRecorded']);

const FAILED = new Set(['LoginFailed', 'UnknownAccountLoginFailed', 'TotpCodeRejected', 'ChallengeCodeFailed', 'ChallengeExhausted']);
const DENIED = new Set(['TotpReplayRefused', 'ChallengeWithheld', 'ConsequenceRefused']);

const outcomeOfEvent = (type: string): AuditOutcome => (FAILED.has(type) ? 'failed' : DENIED.has(type) ? 'denied' : 'succeeded');

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The patients an event's data names at its top level. */
function namedPatients(data: Record<string, unknown>): string[] {
  const ids = [str(data.patientId), str(data.pacienteId)].filter((id): id is string => id !== null);
  if (Array.isArray(data.patientIds)) for (const id of data.patientIds) if (typeof id === 'string') ids.push(id);
  return [...new Set(ids)];
}

/** The company a platform event concerns, when it names one (directly, or an API client through its stream's owner). */
function companyOf(event: RecordedEvent, owner: StreamOwnerDoc | null): string | null {
  const category = categoryOfStream(event.streamName);
  if (category === 'company') return aggregateIdOfStream(event.streamName);
  return str(event.data.companyId) ?? (category === API_CLIENT_CATEGORY ? (owner?.companyId ?? null) : null);
}

const ownerKey = (stream: string): string => stream.slice(stream.indexOf('.') + 1);

function baseEntry(event: RecordedEvent): AuditEntry {
  const m = event.metadata;
  return {
    entryId: event.id,
    at: m.occurredAt,
    position: Number(event.position),
    kind: 'change',
    action: event.type,
    outcome: outcomeOfEvent(event.type),
    actor: m.actor,
    sessionId: m.sessionId,
    ip: m.ip,
    userAgent: m.userAgent,
    correlationId: m.correlationId,
    reason: m.reason,
    route: null,
    method: null,
    status: null,
    recordType: categoryOfStream(event.streamName) || null,
    recordId: aggregateIdOfStream(event.streamName) || null,
    patientIds: [],
    count: 1,
    lastAt: m.occurredAt,
  };
}

/** Stores an entry in a trail, and its row per patient for the patient filter. */
function putEntry(tx: ProjectionTx, scope: string, entry: AuditEntry): void {
  const doc = storedEntry(scope, entry);
  tx.put(AUDIT_TRAIL.entries, doc);
  for (const patientId of entry.patientIds) tx.put(AUDIT_TRAIL.byPatient, patientRow(doc, patientId));
}

/** A read (or a refused attempt) the access audit recorded. */
async function accessEntry(tx: ProjectionTx, event: RecordedEvent, scope: string): Promise<AuditEntry> {
  const d = event.data;
  const recordType = str(d.recordType);
  const recordId = str(d.recordId);
  const patients = new Set(namedPatients(d));
  if (recordType === PATIENT_CATEGORY && recordId) patients.add(recordId);
  else if (recordType && recordId && PATIENT_RECORDS.has(recordType)) {
    // A refused read names the record as asked: its patient is known here when the record is this company's.
    const owner = await tx.get<StreamOwnerDoc>(AUDIT_TRAIL.owners, scope, `${recordType}-${recordId}`);
    if (owner?.patientId) patients.add(owner.patientId);
  }
  const method = str(d.method) ?? 'GET';
  const outcome = d.outcome === 'denied' || d.outcome === 'not-found' ? d.outcome : 'allowed';
  return {
    ...baseEntry(event),
    kind: 'read',
    action: method === 'GET' ? 'read' : 'write',
    outcome,
    route: str(d.route),
    method,
    status: typeof d.status === 'number' ? d.status : null,
    recordType,
    recordId,
    patientIds: [...patients],
    count: typeof d.count === 'number' ? d.count : 1,
    lastAt: str(d.lastAt) ?? event.metadata.occurredAt,
  };
}

async function handle(event: RecordedEvent, tx: ProjectionTx): Promise<void> {
  if (NOT_AUDITED.has(event.type)) return;
  const tenant = tenantOfStream(event.streamName);
  const category = categoryOfStream(event.streamName);
  if (!tenant || category.endsWith('Snapshot')) return; // a snapshot repeats what its stream's events said
  // Entries are the same on every delivery, and written only over an older position: a replay changes nothing.
  if (event.type === RECORD_ACCESSED) return putEntry(tx, tenant, await accessEntry(tx, event, tenant));
  const scope = tenant === PLATFORM_TENANT ? PLATFORM_DOCS : tenant;
  const remembered = PATIENT_RECORDS.has(category) || category === API_CLIENT_CATEGORY;
  const owner = remembered ? await tx.get<StreamOwnerDoc>(AUDIT_TRAIL.owners, scope, ownerKey(event.streamName)) : null;
  const named = namedPatients(event.data);
  const own =
    category === PATIENT_CATEGORY ? aggregateIdOfStream(event.streamName) : PATIENT_RECORDS.has(category) ? (named[0] ?? null) : null;
  const patient = owner?.patientId ?? own;
  const company = scope === PLATFORM_DOCS ? companyOf(event, owner) : null;
  if (remembered && !owner && (patient || company)) {
    // Learned once: a stream's patient (or an API client's company) never changes.
    const companyId = category === API_CLIENT_CATEGORY ? company : null;
    tx.put<StreamOwnerDoc>(AUDIT_TRAIL.owners, {
      tenantId: scope,
      id: ownerKey(event.streamName),
      patientId: patient,
      companyId,
      _position: Number(event.position),
    });
  }
  const patients = new Set(named);
  if (patient) patients.add(patient);
  const entry: AuditEntry = { ...baseEntry(event), kind: scope === PLATFORM_DOCS ? 'account' : 'change', patientIds: [...patients] };
  putEntry(tx, scope, entry);
  // A platform event about a company is in that company's trail too (memberships, roles, its API clients, sign-ins to it).
  if (company) putEntry(tx, company, entry);
}

export const auditProjection: Projection = {
  name: AUDIT_TRAIL.projection,
  version: 3,
  collections: AUDIT_COLLECTIONS,
  unstamped: AUDIT_UNSTAMPED,
  eventTypes: 'all',
  handle,
};
