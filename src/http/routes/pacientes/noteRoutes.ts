// /pacientes/{id}/notas: nursing notes, recorded, listed, read with every version, amended with a reason.
import { PageQuerySchema } from '../../commonSchemas.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { recordAnswer, type RecordAnswerModel } from '../../recordAnswer.js';
import { notFoundProblem } from '../../../problems.js';
import type { RequestContext, RouteDecl } from '../../routeTypes.js';
import type { NoteContent } from '../../../commands/pacientes/nursingNoteEvents.js';
import { noteView, type NoteDoc } from '../../../projections/pacientes/noteDoc.js';
import { amendNote, recordNote } from '../../../commands/pacientes/noteWrites.js';
import { PACIENTES_PROJECTION } from '../../../projections/pacientes/pacientesProjection.js';
import { listNotes } from '../../../queries/pacientes/pacientesQueries.js';
import { noteModel, patientModel } from '../../../queries/pacientes/readModel.js';
import { latestVersions, latestVersionsUpToNote, versionPage } from '../../../queries/pacientes/noteVersions.js';
import {
  commandCtx,
  createdOk,
  conflict409,
  NoteParams,
  notFound404,
  ok,
  pageResponses,
  PatientParams,
  precondition412,
  NOTES,
  READ_HEADERS,
  TAG,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  WRITE,
} from './routeSupport.js';
import { AmendNoteBody, RecordNoteBody } from './noteSchemas.js';
import { NoteSummary, NoteVersionView, NoteView } from './viewSchemas.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const notes = groupRoutes(TAG);

/** A note write answers the note at least at the write, with its latest versions. */
const writtenNote: RecordAnswerModel<NoteDoc> = {
  latest: noteModel.latest,
  view: async (doc, scope) => noteView(doc, await latestVersionsUpToNote(scope, doc)),
};

/** The patient's note, or 404 (a note of another patient is as absent as a missing one). */
async function noteOf(ctx: RequestContext, params: { id: string; noteId: string }): Promise<NoteDoc> {
  const doc = await noteModel.get(tenantCtx(ctx), params.noteId);
  if (!doc || doc.patientId !== params.id) throw notFoundProblem('Nursing note not found');
  return doc;
}

export const noteRoutes: RouteDecl[] = [
  notes.post('/pacientes/{id}/notas', WRITE, {
    idempotent: true,
    summary: 'Record a nursing note',
    params: PatientParams,
    body: RecordNoteBody,
    responses: { 201: createdOk('The note', NoteView, 'URL of the note'), 404: notFound404 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id } = input.params;
        const content: NoteContent = { occurredAt: ctx.services.now().toISOString(), ...input.body };
        const { noteId, result } = await recordNote(ctx.services.events, commandCtx(ctx), id, content);
        return recordAnswer(ctx, writtenNote, noteId, result, 201, { location: `/pacientes/${id}/notas/${noteId}` });
      }),
  }),
  notes.get('/pacientes/{id}/notas', NOTES, {
    summary: "A patient's nursing notes, newest first (current versions)",
    params: PatientParams,
    query: PageQuerySchema,
    responses: pageResponses('A page of notes', NoteSummary, notFound404),
    auditAccess: (input) => ({ recordType: 'nursingNoteList', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      await patientModel.or404(tenantCtx(ctx), input.params.id);
      // Ajv's useDefaults filled limit from the schema's default.
      return {
        status: 200,
        body: await listNotes(tenantCtx(ctx), input.params.id, input.query.limit, input.query.cursor, input.query.updatedSince),
      };
    },
  }),
  notes.get('/pacientes/{id}/notas/{noteId}', NOTES, {
    summary: 'A nursing note with its latest versions',
    params: NoteParams,
    query: RecordReadQuerySchema,
    responses: { 200: ok('The note', NoteView, READ_HEADERS), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'nursingNote', recordId: input.params.noteId }),
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      if (point) {
        // The note as it was, with its versions up to then; a note of another patient is as absent as a missing one.
        const at = await noteModel.at(tenantCtx(ctx), input.params.noteId, point);
        if (at.doc.patientId !== input.params.id) throw notFoundProblem('Nursing note not found');
        const body = noteView(at.doc, await latestVersionsUpToNote(tenantCtx(ctx), at.doc));
        return { status: 200, body, headers: await asOfHeaders(ctx, at) };
      }
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      const doc = await noteOf(ctx, input.params);
      return { status: 200, body: noteView(doc, await latestVersions(tenantCtx(ctx), doc)), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  notes.get('/pacientes/{id}/notas/{noteId}/versiones', NOTES, {
    summary: 'Every version of a nursing note, oldest first, page by page',
    params: NoteParams,
    query: PageQuerySchema,
    responses: pageResponses('A page of versions', NoteVersionView, notFound404),
    auditAccess: (input) => ({ recordType: 'nursingNote', recordId: input.params.noteId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      const doc = await noteOf(ctx, input.params);
      // Ajv's useDefaults filled limit from the schema's default.
      return { status: 200, body: await versionPage(tenantCtx(ctx), doc, input.query.limit, input.query.cursor, input.query.updatedSince) };
    },
  }),
  notes.post('/pacientes/{id}/notas/{noteId}/enmiendas', WRITE, {
    idempotent: true,
    summary: 'Amend a nursing note (a new version with a reason; nothing is overwritten)',
    params: NoteParams,
    body: AmendNoteBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 201: ok('The note with its new version', NoteView), 404: notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id, noteId } = input.params;
        const patch = input.body;
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await amendNote(ctx.services.events, commandCtx(ctx, patch.reason), id, noteId, patch, ifMatch);
        return recordAnswer(ctx, writtenNote, noteId, result, 201);
      }),
  }),
];
