// Entries of a patient's lists that outgrow the patient document's caps: once a list holds more than its cap, every
// entry of it lives here too, one document each with its place in the list (`ordinal`), so all stay reachable page
// by page. Lists within their cap (nearly all) are not stored twice.
import { LIMITS } from '../../limits.js';
import type { ProjectedDoc, ProjectionTx } from '../runner/projection.js';
import { keyOf, PATIENT_LISTS, type EntryChange, type ListEntry, type PatientList } from './patientEntries.js';
import type { PatientDoc } from './patientDoc.js';

export const PATIENT_ENTRIES = 'patientEntries';

export type PatientEntryDoc = ProjectedDoc & {
  patientId: string;
  list: PatientList;
  /** 0-based place in the list, in the order the entries were recorded. */
  ordinal: number;
  entry: ListEntry;
};

/** Coverages, accesses and allergies by their own id (later events name it); other entries by their place. */
export const entryDocId = (patientId: string, list: PatientList, key: string): string => `${patientId}.${list}.${key}`;

const entryDoc = (tenantId: string, patientId: string, list: PatientList, ordinal: number, entry: ListEntry, position: number) => {
  const doc: PatientEntryDoc = {
    tenantId,
    id: entryDocId(patientId, list, keyOf(list, entry) ?? String(ordinal)),
    patientId,
    list,
    ordinal,
    entry,
    _position: position,
  };
  return doc;
};

/** A list past its cap: its entries are read from the entries collection. */
export const spilled = (doc: Pick<PatientDoc, 'entryCounts'>, list: PatientList): boolean =>
  doc.entryCounts[list] > LIMITS.patientRecord[list];

/**
 * The entry documents one event adds, given the patient before it and after it with uncapped lists (applyPatientEvent):
 * every entry of a list that passes its cap now, and what the event appended to a list already past it.
 */
export function spilledEntries(before: PatientDoc | null, full: PatientDoc, position: number): PatientEntryDoc[] {
  const docs: PatientEntryDoc[] = [];
  for (const list of PATIENT_LISTS) {
    if (!spilled(full, list)) continue;
    const had = before && spilled(before, list) ? before.entryCounts[list] : 0;
    const entries: ListEntry[] = full[list];
    // Before it spilled the list was whole (nothing had left it), so its entries' places are their indexes.
    const first = entries.length - (full.entryCounts[list] - had);
    for (let i = first; i < entries.length; i++) {
      docs.push(entryDoc(full.tenantId, full.id, list, had + (i - first), entries[i]!, position));
    }
  }
  return docs;
}

/** Applies an event's changes to the stored entries of lists past their cap (also entries the document no longer keeps). */
export async function changeSpilledEntries(
  tx: ProjectionTx,
  patient: PatientDoc | null,
  changes: EntryChange[],
  position: number,
): Promise<void> {
  if (!patient) return;
  for (const change of changes) {
    if (!spilled(patient, change.list)) continue;
    const stored = await tx.get<PatientEntryDoc>(PATIENT_ENTRIES, patient.tenantId, entryDocId(patient.id, change.list, change.key));
    if (!stored) continue;
    const entry = (change.apply as (e: ListEntry) => ListEntry)(stored.entry);
    tx.put(PATIENT_ENTRIES, { ...stored, entry, _position: position });
  }
}
