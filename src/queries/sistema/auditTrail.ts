// The audit trail as an auditor asks it: filters that each ride an index of the read model, newest first, in pages
// (JSON) or every matching entry streamed a page at a time (CSV, NDJSON) so an export never holds the trail in memory.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ReadServices } from '../../readServices.js';
import type { Filter } from '../../stores/readStore.js';
import {
  AUDIT_TRAIL,
  entryKeyOfRow,
  entryOf,
  FILTERED_ORDER,
  UNFILTERED_ORDER,
  type AuditEntry,
  type AuditEntryDoc,
  type AuditPatientRowDoc,
} from '../../projections/sistema/auditEntryDoc.js';
import { csvCell } from '../csv.js';
import { changedSince } from '../changedSince.js';
import { preparedPage } from '../preparedPages.js';

export interface AuditQuery {
  /** Entries whose last change (a coalesced read's lastAt included) is at or after this instant. */
  updatedSince?: string;
  patientId?: string;
  recordType?: string;
  recordId?: string;
  actor?: string;
  action?: string;
  outcome?: string;
  route?: string;
  /** Inclusive ISO-8601 instants. */
  from?: string;
  to?: string;
  limit: number;
  cursor?: string | null;
}

export type AuditEntryView = Omit<AuditEntry, 'entryId' | 'position'> & { id: string; position: string };

// Field by field: a rest and spread of the entry cost a page of 50 ~60 µs more (objects of varying shape to serialize).
const view = (d: AuditEntryDoc): AuditEntryView => {
  const e = entryOf(d);
  return {
    id: e.entryId,
    at: e.at,
    lastAt: e.lastAt,
    count: e.count,
    kind: e.kind,
    action: e.action,
    outcome: e.outcome,
    actor: e.actor,
    sessionId: e.sessionId,
    ip: e.ip,
    userAgent: e.userAgent,
    correlationId: e.correlationId,
    reason: e.reason,
    route: e.route,
    method: e.method,
    status: e.status,
    recordType: e.recordType,
    recordId: e.recordId,
    patientIds: e.patientIds,
    position: String(e.position),
  };
};

/** Rows read from the store per page of an export. */
export const EXPORT_PAGE = 500;

const EQUALITIES = ['patientId', 'recordType', 'recordId', 'actor', 'action', 'outcome', 'route'] as const;

/** The read-store filter and order of a query: equalities on indexed fields, the time range, newest first. */
export function auditFilter(q: Omit<AuditQuery, 'limit' | 'cursor'>): { filter: Filter; sort: Record<string, 1 | -1> } {
  const filter: Filter = {};
  for (const field of EQUALITIES) if (q[field] !== undefined) filter[field] = q[field];
  // With no equality the time index answers, on its own key (see AuditEntryDoc.t); else the filter's index.
  const unfiltered = Object.keys(filter).length === 0;
  const time: Record<string, string> = {};
  if (q.from !== undefined) time.$gte = normalized(q.from);
  if (q.to !== undefined) time.$lte = normalized(q.to);
  if (Object.keys(time).length > 0) filter[unfiltered ? 't' : 'at'] = time;
  Object.assign(filter, changedSince(q.updatedSince));
  return { filter, sort: unfiltered ? UNFILTERED_ORDER : FILTERED_ORDER };
}

/** Entries store UTC instants (toISOString): a bound with an offset compares as the same instant written so. */
const normalized = (instant: string): string => new Date(instant).toISOString();

/** One page of a trail (`scope`: a company id, or the platform's). */
export async function auditPage(
  services: Pick<ReadServices, 'projections'>,
  scope: string,
  q: AuditQuery,
): Promise<{ items: AuditEntryView[]; nextCursor: string | null }> {
  const { filter, sort } = auditFilter(q);
  const options = { sort, limit: q.limit, after: q.cursor ?? null };
  const entries = services.projections.collection<AuditEntryDoc>(AUDIT_TRAIL.projection, AUDIT_TRAIL.entries);
  if (q.patientId === undefined) {
    const page = await entries.find(scope, filter, options);
    return { items: page.items.map(view), nextCursor: page.nextCursor };
  }
  // The patient's rows answer the filter and the order; their entries are read by key, written with them.
  const rows = await services.projections
    .collection<AuditPatientRowDoc>(AUDIT_TRAIL.projection, AUDIT_TRAIL.byPatient)
    .find(scope, filter, options);
  const keys = rows.items.map(entryKeyOfRow);
  const found = keys.length === 0 ? [] : (await entries.find(scope, { id: { $in: keys } }, { limit: keys.length })).items;
  const byKey = new Map(found.map((doc) => [doc.id, doc]));
  const items = keys.flatMap((key) => {
    const doc = byKey.get(key);
    return doc ? [view(doc)] : [];
  });
  return { items, nextCursor: rows.nextCursor };
}

/**
 * A page's answer (e.g. its sealed JSON) kept while the trail it reads is unchanged for the scope: `key` is every query
 * parameter that shapes the answer. Repeated reads of the trail coalesce in the access audit, so an auditor's screen
 * refreshing it is served from the kept page until entries are written (at most every flush of the audit).
 */
export function preparedAuditPage<A>(
  services: ReadServices,
  scope: string,
  q: Pick<AuditQuery, 'patientId'>,
  key: string,
  prepare: () => Promise<A>,
): Promise<A> {
  const collection = q.patientId !== undefined ? AUDIT_TRAIL.byPatient : AUDIT_TRAIL.entries;
  return preparedPage({ services, auth: { tenantId: scope } }, { projection: AUDIT_TRAIL.projection, collection, query: key }, prepare);
}

/** Every matching entry from the cursor on, a page at a time (the event loop serves others between pages). */
export async function* auditEntries(
  services: Pick<ReadServices, 'projections'>,
  scope: string,
  q: Omit<AuditQuery, 'limit'>,
): AsyncGenerator<AuditEntryView> {
  let after = q.cursor ?? null;
  do {
    const page = await auditPage(services, scope, { ...q, limit: EXPORT_PAGE, cursor: after });
    yield* page.items;
    after = page.nextCursor;
    if (after) await nextTurn();
  } while (after);
}

export const AUDIT_CSV_COLUMNS = [
  'at',
  'actor',
  'action',
  'outcome',
  'kind',
  'recordType',
  'recordId',
  'patientIds',
  'route',
  'method',
  'status',
  'ip',
  'userAgent',
  'correlationId',
  'sessionId',
  'reason',
  'count',
  'lastAt',
  'id',
  'position',
] as const;

/** One CSV line (CRLF ended) of an entry; the patients joined by spaces. */
export function auditCsvLine(entry: AuditEntryView | null): string {
  const cells = entry
    ? AUDIT_CSV_COLUMNS.map((column) => (column === 'patientIds' ? entry.patientIds.join(' ') : entry[column]))
    : AUDIT_CSV_COLUMNS;
  return cells.map(csvCell).join(',') + '\r\n';
}

/** The text of an export, chunk by chunk: a CSV header then rows, or one JSON entry per line. */
export async function* auditExport(
  services: Pick<ReadServices, 'projections'>,
  scope: string,
  q: Omit<AuditQuery, 'limit'>,
  format: 'csv' | 'ndjson',
): AsyncGenerator<string> {
  if (format === 'csv') yield auditCsvLine(null);
  let chunk = '';
  for await (const entry of auditEntries(services, scope, q)) {
    chunk += format === 'csv' ? auditCsvLine(entry) : JSON.stringify(entry) + '\n';
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
