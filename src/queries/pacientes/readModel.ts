// Access to the Pacientes read models, with read-your-writes: a write waits for the projection to apply
// its events, then reads; if the bounded wait runs out it folds the record's own stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection } from '../../stores/readStore.js';
import { type RecordedEvent } from '../../stores/eventStore.js';
import { foldNote, versionsFromStream, type NoteDoc, type NoteVersion } from '../../projections/pacientes/noteDoc.js';
import { latestVersions } from './noteVersions.js';
import { foldPatient, type PatientDoc } from '../../projections/pacientes/patientDoc.js';
import { NURSING_NOTES, PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';
import { patientStream } from '../../commands/pacientes/patientEvents.js';
import { nursingNoteStream } from '../../commands/pacientes/nursingNoteEvents.js';

/** Where a write left its stream: the revision to read at least, and the global position to wait for. */
export interface WriteOutcome {
  revision: number;
  position: bigint | null;
}

export const patients = (ctx: TenantScope): Collection<PatientDoc> =>
  ctx.services.projections.collection<PatientDoc>(PACIENTES_PROJECTION, PATIENTS);

export const nursingNotes = (ctx: TenantScope): Collection<NoteDoc> =>
  ctx.services.projections.collection<NoteDoc>(PACIENTES_PROJECTION, NURSING_NOTES);

function foldStream<T>(events: RecordedEvent[], fold: (doc: T | null, e: RecordedEvent) => T | null): T | null {
  let doc: T | null = null;
  for (const e of events) doc = fold(doc, e);
  return doc;
}

/** Waits (bounded) for the projection to apply a write; false when the wait ran out. */
export async function awaitWrite(ctx: TenantScope, result: Pick<WriteOutcome, 'position'>): Promise<boolean> {
  if (result.position === null) return true;
  return ctx.services.projections.waitFor(result.position, {
    projections: [PACIENTES_PROJECTION],
    timeoutMs: LIMITS.readYourWrites.maxWaitMs,
  });
}

/** The patient at least at `minRevision`: from the read model, or folded from its stream when the model lags. */
export async function patientAfterWrite(ctx: TenantScope, id: string, result: WriteOutcome): Promise<PatientDoc> {
  await awaitWrite(ctx, result);
  const tenantId = ctx.auth.tenantId;
  const doc = await patients(ctx).get(tenantId, id);
  if (doc && doc.revision >= result.revision) return doc;
  const folded = foldStream<PatientDoc>(await ctx.services.events.readStream(patientStream(tenantId, id)), foldPatient);
  if (!folded) throw notFoundProblem('Patient not found');
  return folded;
}

/** The note at least at the write's revision with its latest versions: from the read model, or its stream when it lags. */
export async function noteAfterWrite(
  ctx: TenantScope,
  noteId: string,
  result: WriteOutcome,
): Promise<{ doc: NoteDoc; versions: NoteVersion[] }> {
  await awaitWrite(ctx, result);
  const tenantId = ctx.auth.tenantId;
  const doc = await nursingNotes(ctx).get(tenantId, noteId);
  if (doc && doc.revision >= result.revision) return { doc, versions: await latestVersions(ctx, doc) };
  const events = await ctx.services.events.readStream(nursingNoteStream(tenantId, noteId));
  const folded = foldStream<NoteDoc>(events, foldNote);
  if (!folded) throw notFoundProblem('Nursing note not found');
  return { doc: folded, versions: versionsFromStream(events).slice(-LIMITS.nursingNotes.versionsInline) };
}

/** A patient of the caller's company, or 404 (another company's patient is exactly as absent). */
export async function patientOr404(ctx: TenantScope, id: string): Promise<PatientDoc> {
  const doc = await patients(ctx).get(ctx.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Patient not found');
  return doc;
}
