// Every entry of one of a patient's lists, oldest first, a page at a time: from the patient document while the list
// fits its cap, from the entries collection once it outgrew it. The cursor is the last entry's place in the list.
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Page } from '../../stores/readStore.js';
import { InvalidCursorError } from '../../stores/readCursor.js';
import type { PatientDoc } from '../../projections/pacientes/patientDoc.js';
import type { ListEntry, PatientList } from '../../projections/pacientes/patientEntries.js';
import { PATIENT_ENTRIES, spilled, type PatientEntryDoc } from '../../projections/pacientes/patientListDocs.js';
import { PACIENTES_PROJECTION } from '../../projections/pacientes/pacientesProjection.js';
import { occurredSince, stampOf } from '../changedSince.js';

const patientEntries = (ctx: TenantScope): Collection<PatientEntryDoc> =>
  ctx.services.projections.collection<PatientEntryDoc>(PACIENTES_PROJECTION, PATIENT_ENTRIES);

const cursorOf = (list: PatientList, ordinal: number): string => Buffer.from(JSON.stringify({ l: list, o: ordinal })).toString('base64url');

/** The place after which the page starts (-1: from the first); a cursor of another list is refused. */
function placeAfter(list: PatientList, cursor: string | undefined): number {
  if (cursor === undefined) return -1;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  const { l, o } = (parsed ?? {}) as { l?: unknown; o?: unknown };
  if (l !== list || !Number.isSafeInteger(o) || (o as number) < 0) throw new InvalidCursorError('cursor does not belong to this list');
  return o as number;
}

export async function patientListPage(
  ctx: TenantScope,
  patient: PatientDoc,
  list: PatientList,
  limit: number,
  cursor?: string,
  updatedSince?: string,
): Promise<Page<ListEntry>> {
  const after = placeAfter(list, cursor);
  const count = patient.entryCounts[list];
  if (!spilled(patient, list)) {
    // With updatedSince: the entries recorded at or after it (an entry's place in the list stays its cursor).
    const since = occurredSince(updatedSince);
    const places = patient[list].flatMap((entry, place) => (place > after && since(entry.recordedAt) ? [place] : []));
    const taken = places.slice(0, limit);
    const items: ListEntry[] = taken.map((place) => patient[list][place]!);
    return { items, nextCursor: places.length > limit ? cursorOf(list, taken[taken.length - 1]!) : null };
  }
  // Entries up to the patient's count: a remote store writes them before the patient, so a read may meet one early.
  const recorded = updatedSince === undefined ? {} : { 'entry.recordedAt': { $gte: stampOf(updatedSince) } };
  const page = await patientEntries(ctx).find(
    ctx.auth.tenantId,
    { patientId: patient.id, list, ordinal: { $gt: after, $lt: count }, ...recorded },
    { sort: { ordinal: 1 }, limit, projection: { ordinal: 1, entry: 1 } },
  );
  const last = page.items[page.items.length - 1];
  return { items: page.items.map((d) => d.entry), nextCursor: page.nextCursor && last ? cursorOf(list, last.ordinal) : null };
}
