// Queries over the Pacientes read models and, for the history, over the record's own streams.
import type { TenantScope } from '../tenantScope.js';
import { streamName, type RecordedEvent } from '../../stores/eventStore.js';
import type { Filter, Page, SortSpec } from '../../stores/readStore.js';
import { NOTE_CONTENT_KEYS, noteView, type NoteDoc } from '../../projections/pacientes/noteDoc.js';
import { noteModel, nursingNotes, patientModel, patients } from './readModel.js';
import { changesOf, type HistoryFold } from '../recordHistory.js';
import type { FieldChange } from '../recordChanges.js';
import type { PatientDoc } from '../../projections/pacientes/patientDoc.js';
import { searchFilter } from '../../projections/pacientes/searchText.js';
import { PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';
import { preparedPage } from '../preparedPages.js';
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { NURSING_NOTE_CATEGORY } from '../../commands/pacientes/nursingNoteEvents.js';
import { changedSince, occurredSince } from '../changedSince.js';
import { moduleRecordModel, recordIdsOfPatient } from '../generador/moduleRecords.js';
import { MODULE_RECORD_CATEGORY } from '../../commands/generador/record/moduleRecordEvents.js';
import { mayOnModule } from '../../commands/generador/shared/modulePermissions.js';

export const SORT_FIELDS = { name: 'sortName', admissionDate: 'admissionDate', createdAt: 'createdAt' } as const;
export type PatientSort = keyof typeof SORT_FIELDS;

export interface PatientListQuery {
  q?: string;
  status?: PatientDoc['status'];
  sort: PatientSort;
  order: 'asc' | 'desc';
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** List items: the census columns, not the whole record. */
export const PATIENT_SUMMARY_FIELDS = [
  'id',
  'revision',
  'documentType',
  'documentNumber',
  'givenNames',
  'familyNames',
  'sex',
  'birthDate',
  'admissionDate',
  'status',
  'dryWeightKg',
  'isolation',
  'createdAt',
  'updatedAt',
] as const;

// Only the summary fields leave the store: a list never copies whole records.
const SUMMARY_PROJECTION: Record<string, 1> = Object.fromEntries(PATIENT_SUMMARY_FIELDS.map((f) => [f, 1]));

export async function listPatients(ctx: TenantScope, query: PatientListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.status) filter.status = query.status;
  const search = query.q ? searchFilter(query.q) : null;
  if (search) Object.assign(filter, search);
  Object.assign(filter, changedSince(query.updatedSince));
  const sort: SortSpec = { [SORT_FIELDS[query.sort]]: query.order === 'asc' ? 1 : -1 };
  const result = await patients(ctx).find(ctx.auth.tenantId, filter, {
    sort,
    limit: query.limit,
    after: query.cursor ?? null,
    projection: SUMMARY_PROJECTION,
  });
  // The projection already made each item a fresh copy holding only the summary fields.
  return { items: result.items, nextCursor: result.nextCursor };
}

/** The caller's answer made of a page of the list (its JSON), kept while the company's patients are unchanged. */
export function preparedPatientList<A>(
  ctx: TenantScope,
  query: PatientListQuery,
  prepare: (page: Page<Record<string, unknown>>) => A,
): Promise<A> {
  // Every reader with pacientes:read sees the same summary fields: one variant.
  const normalized = JSON.stringify([
    ...[query.q ?? null, query.status ?? null, query.sort, query.order, query.limit, query.cursor ?? null],
    query.updatedSince ?? null,
  ]);
  return preparedPage(ctx, { projection: PACIENTES_PROJECTION, collection: PATIENTS, query: normalized }, async () =>
    prepare(await listPatients(ctx, query)),
  );
}

// A list shows current versions only: the versions of amended notes are not copied out of the store.
const NOTE_SUMMARY_PROJECTION: Record<string, 1> = Object.fromEntries(
  ['id', 'patientId', 'revision', 'version', ...NOTE_CONTENT_KEYS, 'authorId', 'recordedAt', 'updatedAt', 'amended'].map((f) => [f, 1]),
);

export async function listNotes(
  ctx: TenantScope,
  patientId: string,
  limit: number,
  cursor?: string,
  updatedSince?: string,
): Promise<Page<Record<string, unknown>>> {
  const result = await nursingNotes(ctx).find(
    ctx.auth.tenantId,
    { patientId, ...changedSince(updatedSince) },
    { sort: { occurredAt: -1 }, limit, after: cursor ?? null, projection: NOTE_SUMMARY_PROJECTION },
  );
  return { items: result.items.map((n) => noteView(n)), nextCursor: result.nextCursor };
}

/** Every note id of a patient (the history reads each note's stream). */
async function noteIdsOf(ctx: TenantScope, patientId: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const p: Page<NoteDoc> = await nursingNotes(ctx).find(
      ctx.auth.tenantId,
      { patientId },
      { sort: { id: 1 }, limit: 500, after, projection: { id: 1 } },
    );
    ids.push(...p.items.map((n) => n.id));
    after = p.nextCursor;
  } while (after);
  return ids;
}

export interface HistoryEntry {
  /** Global log position; the HTTP layer seals it (and the page's resume point) before it leaves the service. */
  position: bigint;
  recordType: 'patient' | 'nursingNote' | 'moduleRecord';
  recordId: string;
  revision: number;
  type: string;
  occurredAt: string;
  actor: string;
  reason: string | null;
  correlationId: string;
  data: Record<string, unknown>;
  /** What the event changed in its record, field by field. */
  changes: FieldChange[];
}

const entriesOf = (
  recordType: HistoryEntry['recordType'],
  recordId: string,
  events: RecordedEvent[],
  fold: HistoryFold,
): HistoryEntry[] => {
  const changes = changesOf(events, recordId, fold);
  return events.map((e) => ({ ...entryOf(recordType, recordId)(e), changes: changes.get(e)! }));
};

const entryOf =
  (recordType: HistoryEntry['recordType'], recordId: string) =>
  (e: RecordedEvent): Omit<HistoryEntry, 'changes'> => ({
    position: e.position,
    recordType,
    recordId,
    revision: e.revision,
    type: e.type,
    occurredAt: e.metadata.occurredAt,
    actor: e.metadata.actor,
    reason: e.metadata.reason ?? null,
    correlationId: e.metadata.correlationId,
    data: e.data,
  });

/** A page of the history: `nextAfter` is the position to resume after, null on the last page. */
export interface HistoryPage {
  items: HistoryEntry[];
  nextAfter: bigint | null;
}

/**
 * The record's events (the patient stream, its notes, and its records of company modules the reader may read, given
 * its `permissions`) in log order: who, when, why, what.
 */
export async function patientHistory(
  ctx: TenantScope,
  patientId: string,
  limit: number,
  after: bigint | null,
  updatedSince?: string,
  permissions: ReadonlySet<string> = new Set(),
): Promise<HistoryPage> {
  const tenantId = ctx.auth.tenantId;
  const read = (category: string, id: string) => ctx.services.events.readStream(streamName(tenantId, category, id));
  const own = entriesOf('patient', patientId, await read(PATIENT_CATEGORY, patientId), patientModel.fold);
  const notes = await Promise.all(
    (await noteIdsOf(ctx, patientId)).map(async (id) =>
      entriesOf('nursingNote', id, await read(NURSING_NOTE_CATEGORY, id), noteModel.fold),
    ),
  );
  const readable = (await recordIdsOfPatient(ctx, patientId)).filter((r) => mayOnModule(permissions, r.module, 'read'));
  const records = await Promise.all(
    readable.map(async (r) =>
      entriesOf('moduleRecord', r.id, await read(MODULE_RECORD_CATEGORY, r.id), moduleRecordModel.fold as HistoryFold),
    ),
  );
  const since = occurredSince(updatedSince);
  const all = [...own, ...notes.flat(), ...records.flat()].filter((e) => (after === null || e.position > after) && since(e.occurredAt));
  all.sort((a, b) => (a.position < b.position ? -1 : 1));
  const items = all.slice(0, limit);
  return { items, nextAfter: all.length > limit ? items[items.length - 1]!.position : null };
}
