// /pacientes: register, list and search, read, correct, and the record's history.
import { mustBeCompanyClients } from '../../../commands/pacientes/coverageClientWrites.js';
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { handTypedRoute, type RouteDecl } from '../../routeTypes.js';
import { PATIENT_STATUSES } from '../../../commands/pacientes/patientTypes.js';
import type { RegisterPatientData } from '../../../commands/pacientes/patientCommands.js';
import type { AllergyEntry, CorrectableField, CoverageEntry, PatientDemographics } from '../../../commands/pacientes/patientTypes.js';
import { newId, uuidV5 } from '../../../commands/eventIds.js';
import { patientView } from '../../../projections/pacientes/patientDoc.js';
import { correctPatient, registerPatient } from '../../../commands/pacientes/patientWrites.js';
import { PACIENTES_PROJECTION } from '../../../projections/pacientes/pacientesProjection.js';
import { patientHistory, preparedPatientList, SORT_FIELDS, type PatientListQuery } from '../../../queries/pacientes/pacientesQueries.js';
import { patientOr404 } from '../../../queries/pacientes/readModel.js';
import { InvalidCursorError } from '../../../stores/readCursor.js';
import type { Page } from '../../../stores/readStore.js';
import { consistencyTokens } from '../../consistencyToken.js';
import { PreparedJson } from '../../preparedJson.js';
import { sealPageCursor } from '../../pageCursor.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  required428,
  notFound404,
  ok,
  PatientParams,
  patientAnswer,
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
  type PageQuery,
  type PatientIdParams,
} from './routeSupport.js';
import { CorrectPatientBody, RegisterPatientBody } from './patientSchemas.js';
import { HistoryEntry, PatientSummary, PatientView } from './viewSchemas.js';
import { pageItemIds } from '../../routeAudit.js';

/** RegisterPatientBody: the entries come without their ids. */
type RegisterPatientInput = Omit<RegisterPatientData, 'allergies' | 'coverages'> & {
  allergies?: Omit<AllergyEntry, 'allergyId'>[];
  coverages?: Omit<CoverageEntry, 'coverageId'>[];
};

/** CorrectPatientBody: null clears only an optional field; the reason travels in the events' metadata. */
type PatientCorrection = {
  [K in CorrectableField]?: undefined extends PatientDemographics[K] ? PatientDemographics[K] | null : PatientDemographics[K];
} & { reason?: string };

/** Ids of the entries a registration brings along: derived from the Idempotency-Key when there is one. */
function withEntryIds(body: RegisterPatientInput, key: string | null): RegisterPatientData {
  const id = (kind: string, i: number) => (key ? uuidV5(`${kind}\u0000${key}\u0000${i}`) : newId());
  const { allergies, coverages, ...data } = body;
  return {
    ...data,
    ...(allergies ? { allergies: allergies.map((a, i) => ({ ...a, allergyId: id('allergy', i) })) } : {}),
    ...(coverages ? { coverages: coverages.map((c, i) => ({ ...c, coverageId: id('coverage', i) })) } : {}),
  };
}

const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

export const patientRoutes: RouteDecl[] = [
  handTypedRoute<NoInput, NoInput, RegisterPatientInput>({
    method: 'post',
    path: '/pacientes',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Register a patient',
    description:
      'The identity document (type + number, compared ignoring case, spaces, dots and dashes) is unique within the company: a second registration answers 409 duplicate-document. Serology results set the isolation they imply.',
    body: RegisterPatientBody,
    responses: {
      201: ok('The registered patient', PatientView, { ...RECORD_HEADERS, Location: 'URL of the patient' }),
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        await mustBeCompanyClients(ctx.services.events, tenantCtx(ctx).auth.tenantId, input.body.coverages ?? [], (i) => `coverages/${i}`);
        const data = withEntryIds(input.body, ctx.idempotencyKey);
        const { patientId, result } = await registerPatient(ctx.services.events, commandCtx(ctx), data);
        return patientAnswer(ctx, patientId, result, 201);
      }),
  }),
  handTypedRoute<NoInput, PatientListQuery & MinPositionQuery>({
    method: 'get',
    path: '/pacientes',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List and search patients',
    description:
      'q matches names and document numbers, ignoring case and accents (every word must match). Stable order with an opaque cursor.',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 100, description: 'Search by name or document number' },
        status: { enum: [...PATIENT_STATUSES] },
        sort: { enum: Object.keys(SORT_FIELDS), default: 'name', description: 'name sorts by family names, then given names' },
        order: { enum: ['asc', 'desc'], default: 'asc' },
        ...pageQueryProperties,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'A page of patients', schema: pageOf(PatientSummary) }, 400: badCursor400, 503: unavailable503 },
    auditAccess: (_input, result) => ({ recordType: 'patientList', recordId: null, patientIds: pageItemIds(result) }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      // Serialized once per change of the company's patients, after the wait: never older than the write waited for.
      const prepare = (page: Page<Record<string, unknown>>) =>
        PreparedJson.of({ ...page, nextCursor: sealPageCursor(ctx, page.nextCursor) });
      return { status: 200, body: await preparedPatientList(tenantCtx(ctx), input.query, prepare) };
    },
  }),
  handTypedRoute<PatientIdParams, MinPositionQuery>({
    method: 'get',
    path: '/pacientes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a patient',
    params: PatientParams,
    query: minPositionOnly,
    responses: { 200: ok('The patient', PatientView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'patient', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      const doc = await patientOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: patientView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  handTypedRoute<PatientIdParams, NoInput, PatientCorrection>({
    method: 'patch',
    path: '/pacientes/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Correct a patient's data",
    description:
      'Partial update of demographic data; If-Match is required (428 without it, 412 when the record changed). A changed identity document must still be unique (409).',
    params: PatientParams,
    body: CorrectPatientBody,
    // Declared optional so that its absence answers 428 (the handler checks), not a schema 422.
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: {
      200: ok('The corrected patient', PatientView),
      404: notFound404,
      409: conflict409,
      412: precondition412,
      428: required428,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const header = input.headers['if-match'];
        // Lost-update protection needs a concrete revision: '*' would not protect anything.
        const ifMatch = ifMatchRevision(header, { required: true });
        const { reason, ...patch } = input.body;
        const result = await correctPatient(ctx.services.events, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return patientAnswer(ctx, input.params.id, result, 200);
      }),
  }),
  handTypedRoute<PatientIdParams, PageQuery>({
    method: 'get',
    path: '/pacientes/{id}/historial',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: "The record's history: every event of the patient and its nursing notes, in order",
    description: 'Who (actor), when (occurredAt), why (reason), what (type and data), with the revision in its record.',
    params: PatientParams,
    query: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...minPositionQueryProperty } },
    responses: {
      200: { description: 'A page of the history, oldest first', schema: pageOf(HistoryEntry) },
      400: badCursor400,
      404: notFound404,
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'patientHistory', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [PACIENTES_PROJECTION]);
      await patientOr404(tenantCtx(ctx), input.params.id);
      // Positions leave sealed, like X-Event-Position: usable as minPosition, silent about other companies' writes.
      const tokens = await consistencyTokens(ctx.services);
      const after = input.query.cursor === undefined ? null : tokens.open(input.query.cursor);
      if (after === null && input.query.cursor !== undefined) throw new InvalidCursorError();
      const page = await patientHistory(tenantCtx(ctx), input.params.id, input.query.limit, after);
      const items = page.items.map((e) => ({ ...e, position: tokens.seal(e.position) }));
      return { status: 200, body: { items, nextCursor: page.nextAfter === null ? null : tokens.seal(page.nextAfter) } };
    },
  }),
];
