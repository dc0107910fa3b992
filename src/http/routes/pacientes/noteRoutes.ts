// /pacientes/{id}/notas: nursing notes, recorded, listed, read with every version, amended with a reason.
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { notFoundProblem } from '../../../problems.js';
import { handTypedRoute, type RouteDecl } from '../../routeTypes.js';
import type { NoteContent, NoteContentPatch } from '../../../commands/pacientes/nursingNoteEvents.js';
import { noteView } from '../../../projections/pacientes/noteDoc.js';
import { amendNote, recordNote } from '../../../commands/pacientes/noteWrites.js';
import { ReasonSchema } from './patientSchemas.js';
import { PACIENTES_PROJECTION } from '../../../projections/pacientes/pacientesProjection.js';
import { listNotes } from '../../../queries/pacientes/pacientesQueries.js';
import { nursingNotes, patientOr404 } from '../../../queries/pacientes/readModel.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  noteAnswer,
  NoteParams,
  notFound404,
  ok,
  PatientParams,
  precondition412,
  READ,
  RECORD_HEADERS,
  TAG,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  WRITE,
  type MinPositionQuery,
  type NoInput,
  type NoteIdParams,
  type PageQuery,
  type PatientIdParams,
} from './routeSupport.js';
import { noteContent, NoteSummary, NoteVersionView, NoteView } from './viewSchemas.js';
import { latestVersions, versionPage } from '../../../queries/pacientes/noteVersions.js';

const nullable = (s: Record<string, unknown>) => ({ anyOf: [s, { type: 'null' }] });

const RecordNoteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['noteType'],
  description:
    'Free text and/or SOAPIE parts (at least one). The author is the signed-in user. A dialysisSessionId must name a session ' +
    "of this patient in this company (422 naming it; another company's session is reported as absent).",
  properties: noteContent,
};
const AmendNoteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  description: 'A new version: parts omitted keep their value, null clears an optional part. The original stays readable.',
  properties: {
    reason: ReasonSchema,
    noteType: noteContent.noteType,
    occurredAt: noteContent.occurredAt,
    text: nullable(noteContent.text!),
    soapie: nullable(noteContent.soapie!),
    authorLicence: nullable(noteContent.authorLicence!),
    dialysisSessionId: nullable(noteContent.dialysisSessionId!),
  },
};

/** RecordNoteBody: occurredAt defaults to now. */
type RecordNoteInput = Omit<NoteContent, 'occurredAt'> & { occurredAt?: string };
/** AmendNoteBody: noteType and occurredAt can change but not be cleared. */
type AmendNoteInput = Omit<NoteContentPatch, 'noteType' | 'occurredAt'> &
  Partial<Pick<NoteContent, 'noteType' | 'occurredAt'>> & { reason: string };

const noteNotFound = () => notFoundProblem('Nursing note not found');

export const noteRoutes: RouteDecl[] = [
  handTypedRoute<PatientIdParams, NoInput, RecordNoteInput>({
    method: 'post',
    path: '/pacientes/{id}/notas',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Record a nursing note',
    params: PatientParams,
    body: RecordNoteBody,
    responses: { 201: ok('The note', NoteView, { ...RECORD_HEADERS, Location: 'URL of the note' }), 404: notFound404 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id } = input.params;
        const content: NoteContent = { occurredAt: ctx.services.now().toISOString(), ...input.body };
        const { noteId, result } = await recordNote(ctx.services.events, commandCtx(ctx), id, content);
        return noteAnswer(ctx, noteId, result, 201, `/pacientes/${id}/notas/${noteId}`);
      }),
  }),
  handTypedRoute<PatientIdParams, PageQuery>({
    method: 'get',
    path: '/pacientes/{id}/notas',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "A patient's nursing notes, newest first (current versions)",
    params: PatientParams,
    query: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } },
    responses: {
      200: { description: 'A page of notes', schema: pageOf(NoteSummary) },
      400: badCursor400,
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'nursingNoteList', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      await patientOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: await listNotes(tenantCtx(ctx), input.params.id, input.query.limit, input.query.cursor) };
    },
  }),
  handTypedRoute<NoteIdParams, MinPositionQuery>({
    method: 'get',
    path: '/pacientes/{id}/notas/{noteId}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'A nursing note with its latest versions',
    params: NoteParams,
    query: { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } },
    responses: { 200: ok('The note', NoteView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'nursingNote', recordId: input.params.noteId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      const doc = await nursingNotes(tenantCtx(ctx)).get(tenantCtx(ctx).auth.tenantId, input.params.noteId);
      if (!doc || doc.patientId !== input.params.id) throw noteNotFound();
      return { status: 200, body: noteView(doc, await latestVersions(tenantCtx(ctx), doc)), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  handTypedRoute<NoteIdParams, PageQuery>({
    method: 'get',
    path: '/pacientes/{id}/notas/{noteId}/versiones',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Every version of a nursing note, oldest first, page by page',
    params: NoteParams,
    query: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } },
    responses: {
      200: { description: 'A page of versions', schema: pageOf(NoteVersionView) },
      400: badCursor400,
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'nursingNote', recordId: input.params.noteId }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      const doc = await nursingNotes(tenantCtx(ctx)).get(tenantCtx(ctx).auth.tenantId, input.params.noteId);
      if (!doc || doc.patientId !== input.params.id) throw noteNotFound();
      return { status: 200, body: await versionPage(tenantCtx(ctx), doc, input.query.limit, input.query.cursor) };
    },
  }),
  handTypedRoute<NoteIdParams, NoInput, AmendNoteInput>({
    method: 'post',
    path: '/pacientes/{id}/notas/{noteId}/enmiendas',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
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
        const result = await amendNote(
          ctx.services.events,
          commandCtx(ctx, patch.reason),
          id,
          noteId,
          patch,
          ifMatchRevision(input.headers['if-match']),
        );
        return noteAnswer(ctx, noteId, result, 201);
      }),
  }),
];
