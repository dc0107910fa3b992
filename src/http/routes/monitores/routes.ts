// /monitores: register, list (by status, PM due within N days), read, correct (If-Match), may-start, history.
import { minPositionQueryProperty, pageOf, pageQueryProperties } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { ProblemError } from '../../../problems.js';
import { MACHINE_STATUSES, type MachineFields, type MachinePatch, MACHINE_CATEGORY } from '../../../commands/monitores/machineEvents.js';
import { correctMachine, registerMachine } from '../../../commands/monitores/machineWrites.js';
import { MONITORES_PROJECTION } from '../../../projections/monitores/monitoresProjection.js';
import { patients } from '../../../queries/pacientes/readModel.js';
import { listMachines, machineOr404, machineWithMaintenance, type MachineListQuery } from '../../../queries/monitores/machines.js';
import { mayStartSession } from '../../../queries/monitores/mayStartSession.js';
import {
  badCursor400,
  commandCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
  type MinPositionQuery,
  type NoInput,
} from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { CorrectBody, MachineView, READ, RegisterBody, StartVerdictView, TAG, WRITE } from './schemas.js';
import { machineAnswer, mustBeStation, notFound404, Params, type IdParams } from './support.js';

const minPositionOnly = { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } };

export const machineRoutes: RouteDecl[] = [
  route<NoInput, NoInput, MachineFields>({
    method: 'post',
    path: '/monitores',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Register a dialysis machine',
    description:
      'Code and serial are each unique within the company (trimmed, ignoring case): a second one answers 409 duplicate-code or ' +
      'duplicate-serial. The station must be one of the company (422 naming stationId). A new machine is available.',
    body: RegisterBody,
    responses: { 201: ok('The new machine', MachineView, { ...RECORD_HEADERS, Location: 'URL of the machine' }), 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        await mustBeStation(ctx, input.body.locationId, input.body.stationId);
        const { machineId, result } = await registerMachine(ctx.services.events, commandCtx(ctx), input.body);
        return machineAnswer(ctx, machineId, result, 201);
      }),
  }),
  route<NoInput, MachineListQuery & MinPositionQuery>({
    method: 'get',
    path: '/monitores',
    legacyQuery: ['estado', 'pmVenceEnDias'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'List machines by code: by status, and with preventive maintenance due within N days',
    description:
      'With maintenanceDueInDays the answer holds every machine whose preventive maintenance falls due within that many days or is ' +
      'already overdue (by hours or days), in one page (nextCursor null).',
    query: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { enum: [...MACHINE_STATUSES] },
        maintenanceDueInDays: { type: 'integer', minimum: 0, maximum: 730 },
        ...pageQueryProperties,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'A page of machines', schema: pageOf(MachineView) }, 400: badCursor400, 503: unavailable503 },
    auditAccess: () => ({ recordType: 'machineList', recordId: null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [MONITORES_PROJECTION]);
      return { status: 200, body: await listMachines(tenantCtx(ctx), input.query) };
    },
  }),
  route<IdParams, MinPositionQuery>({
    method: 'get',
    path: '/monitores/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Read a machine, with its next preventive maintenance',
    params: Params,
    query: minPositionOnly,
    responses: { 200: ok('The machine', MachineView, { ETag: RECORD_HEADERS.ETag }), 404: notFound404, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'machine', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [MONITORES_PROJECTION]);
      const doc = await machineOr404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: await machineWithMaintenance(tenantCtx(ctx), doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route<IdParams, NoInput, MachinePatch & { reason: string }>({
    method: 'patch',
    path: '/monitores/{id}',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: "Correct a machine's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the machine changed). A new code or serial ' +
      'must still be unique (409). The status is never corrected: it follows from the history.',
    params: Params,
    body: CorrectBody,
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    responses: {
      200: ok('The corrected machine', MachineView),
      404: notFound404,
      409: conflict409,
      412: precondition412,
      428: required428,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const header = input.headers['if-match'];
        const ifMatch = ifMatchRevision(header, { required: true });
        const { reason, ...patch } = input.body;
        if (patch.locationId !== undefined || patch.stationId !== undefined) {
          const current = await machineOr404(tenantCtx(ctx), input.params.id);
          await mustBeStation(ctx, patch.locationId ?? current.locationId, patch.stationId ?? current.stationId);
        }
        const result = await correctMachine(ctx.services.events, commandCtx(ctx, reason), input.params.id, patch, ifMatch);
        return machineAnswer(ctx, input.params.id, result);
      }),
  }),
  route<IdParams, { patientId: string }>({
    method: 'get',
    path: '/monitores/{id}/puede-iniciar',
    legacyQuery: ['pacienteId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'May this machine start a session for this patient now? Every reason if not',
    description:
      'Status (available, not awaiting disinfection), preventive maintenance under the company policy (overdue blocks, or only ' +
      'warns when the policy says warn) and isolation both ways. A patient not of this company answers 422 naming patientId.',
    params: Params,
    query: { type: 'object', additionalProperties: false, required: ['patientId'], properties: { patientId: IdSchema } },
    responses: { 200: { description: 'The verdict', schema: StartVerdictView }, 404: notFound404 },
    auditAccess: (input) => ({ recordType: 'machineStartVerdict', recordId: input.params.id, patientIds: [input.query.patientId] }),
    handle: async (input, ctx) => {
      const scope = tenantCtx(ctx);
      await machineOr404(scope, input.params.id);
      const patient = await patients(scope).get(scope.auth.tenantId, input.query.patientId);
      if (!patient) {
        throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'patientId: no such patient in this company', {}, [
          { pointer: '/query/patientId', message: 'no such patient in this company' },
        ]);
      }
      const verdict = await mayStartSession(scope, input.params.id, { isolation: patient.isolation }, ctx.services.now());
      return { status: 200, body: verdict };
    },
  }),
  historyRoute({
    path: '/monitores/{id}/historial',
    tag: TAG,
    permission: READ,
    summary: "The machine's history: uses, disinfections, calibrations, maintenance, tickets; who, when, why, oldest first",
    params: Params,
    idParam: 'id',
    auditAs: 'machineHistory',
    category: MACHINE_CATEGORY,
    projection: MONITORES_PROJECTION,
    notFound: notFound404,
    exists: machineOr404,
  }),
];
