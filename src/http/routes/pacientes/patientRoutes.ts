// /pacientes: register, list and search, read, correct, and the record's history.
import Type from 'typebox';
import { mustBeCompanyClients } from '../../../commands/pacientes/coverageClientWrites.js';
import { MinPositionField, PageQueryFields, PageQuerySchema } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { PATIENT_STATUSES } from '../../../commands/pacientes/patientTypes.js';
import type { RegisterPatientData } from '../../../commands/pacientes/patientCommands.js';
import { newId, uuidV5 } from '../../../commands/eventIds.js';
import { correctPatient, registerPatient } from '../../../commands/pacientes/patientWrites.js';
import { PACIENTES_PROJECTION } from '../../../projections/pacientes/pacientesProjection.js';
import { patientHistory, preparedPatientList, SORT_FIELDS, type PatientListQuery } from '../../../queries/pacientes/pacientesQueries.js';
import { patientModel } from '../../../queries/pacientes/readModel.js';
import { InvalidCursorError } from '../../../stores/readCursor.js';
import type { Page } from '../../../stores/readStore.js';
import { consistencyTokens } from '../../consistencyToken.js';
import { PreparedJson } from '../../preparedJson.js';
import { sealPageCursor } from '../../pageCursor.js';
import { commandCtx, createdOk, notFound404, pageResponses, patientKit, PatientParams, READ, TAG, tenantCtx } from './routeSupport.js';
import { CorrectPatientBody, RegisterPatientBody } from './patientSchemas.js';
import { HistoryEntry, PatientSummary, PatientView } from './viewSchemas.js';
import { pageItemIds } from '../../routeAudit.js';
import type { Static } from 'typebox';

/** Ids of the entries a registration brings along: derived from the Idempotency-Key when there is one. */
function withEntryIds(body: Static<typeof RegisterPatientBody>, key: string | null): RegisterPatientData {
  const id = (kind: string, i: number) => (key ? uuidV5(`${kind}\u0000${key}\u0000${i}`) : newId());
  const { allergies, coverages, ...data } = body;
  return {
    ...data,
    ...(allergies ? { allergies: allergies.map((a, i) => ({ ...a, allergyId: id('allergy', i) })) } : {}),
    ...(coverages ? { coverages: coverages.map((c, i) => ({ ...c, coverageId: id('coverage', i) })) } : {}),
  };
}

const SORTS = Object.keys(SORT_FIELDS) as (keyof typeof SORT_FIELDS)[];
const PatientListQuerySchema = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Search by name or document number' })),
    status: Type.Optional(Type.Enum(PATIENT_STATUSES)),
    sort: Type.Optional(Type.Enum(SORTS, { default: 'name', description: 'name sorts by family names, then given names' })),
    order: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'asc' })),
    ...PageQueryFields,
    ...MinPositionField,
  },
  { additionalProperties: false },
);

export const patientRoutes: RouteDecl[] = [
  patientKit.create({
    summary: 'Register a patient',
    description:
      'The identity document (type + number, compared ignoring case, spaces, dots and dashes) is unique within the company: a second registration answers 409 duplicate-document. Serology results set the isolation they imply.',
    body: RegisterPatientBody,
    responses: { 201: createdOk('The registered patient', PatientView, 'URL of the patient') },
    idKey: 'patientId',
    handle: async (body, ctx) => {
      await mustBeCompanyClients(ctx.services.events, tenantCtx(ctx).auth.tenantId, body.coverages ?? [], (i) => `coverages/${i}`);
      return registerPatient(ctx.services.events, commandCtx(ctx), withEntryIds(body, ctx.idempotencyKey));
    },
  }),
  route({
    method: 'get',
    path: '/pacientes',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List and search patients',
    description:
      'q matches names and document numbers, ignoring case and accents (every word must match). Stable order with an opaque cursor.',
    query: PatientListQuerySchema,
    responses: pageResponses('A page of patients', PatientSummary),
    auditAccess: (_input, result) => ({ recordType: 'patientList', recordId: null, patientIds: pageItemIds(result) }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      // Ajv's useDefaults filled sort, order and limit from the schema's defaults.
      const query = input.query as PatientListQuery;
      // Serialized once per change of the company's patients, after the wait: never older than the write waited for.
      const prepare = (page: Page<Record<string, unknown>>) =>
        PreparedJson.of({ ...page, nextCursor: sealPageCursor(ctx, page.nextCursor) });
      return { status: 200, body: await preparedPatientList(tenantCtx(ctx), query, prepare) };
    },
  }),
  patientKit.read({ summary: 'Read a patient' }),
  patientKit.patch({
    summary: "Correct a patient's data",
    description:
      'Partial update of demographic data; If-Match is required (428 without it, 412 when the record changed). A changed identity document must still be unique (409).',
    body: CorrectPatientBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctPatient(ctx.services.events, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  route({
    method: 'get',
    path: '/pacientes/{id}/historial',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The record's history: every event of the patient, its nursing notes and its module records, in order",
    description: 'Who (actor), when (occurredAt), why (reason), what (type and data), with the revision in its record.',
    params: PatientParams,
    query: PageQuerySchema,
    responses: pageResponses('A page of the history, oldest first', HistoryEntry, notFound404),
    auditAccess: (input) => ({ recordType: 'patientHistory', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      await patientModel.or404(tenantCtx(ctx), input.params.id);
      // Positions leave sealed, like X-Event-Position: usable as minPosition, silent about other companies' writes.
      const tokens = await consistencyTokens(ctx.services);
      const after = input.query.cursor === undefined ? null : tokens.open(input.query.cursor);
      if (after === null && input.query.cursor !== undefined) throw new InvalidCursorError();
      // Ajv's useDefaults filled limit from the schema's default.
      const page = await patientHistory(
        tenantCtx(ctx),
        input.params.id,
        input.query.limit,
        after,
        input.query.updatedSince,
        ctx.auth?.permissions,
      );
      const items = page.items.map((e) => ({ ...e, position: tokens.seal(e.position) }));
      return { status: 200, body: { items, nextCursor: page.nextAfter === null ? null : tokens.seal(page.nextAfter) } };
    },
  }),
];
