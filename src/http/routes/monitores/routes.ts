// /monitores: register, list (by status, PM due within N days), read, correct (If-Match), may-start, history.
import Type from 'typebox';
import { route, type RouteDecl } from '../../routeTypes.js';
import { ProblemError } from '../../../problems.js';
import { MACHINE_STATUSES } from '../../../commands/monitores/machineEvents.js';
import { correctMachine, registerMachine } from '../../../commands/monitores/machineWrites.js';
import { patients } from '../../../queries/pacientes/readModel.js';
import { listMachines, machineListFacts, machineModel } from '../../../queries/monitores/machines.js';
import { mayStartSession } from '../../../queries/monitores/mayStartSession.js';
import { commandCtx, tenantCtx } from '../shared/recordSupport.js';
import { IdParams, IdSchema } from '../shared/fieldSchemas.js';
import { CorrectBody, READ, RegisterBody, StartVerdictView, TAG } from './schemas.js';
import { machineKit } from './support.js';

export const machineRoutes: RouteDecl[] = [
  machineKit.create({
    summary: 'Register a dialysis machine',
    description:
      'Code and serial are each unique within the company (trimmed, ignoring case): a second one answers 409 duplicate-code or ' +
      'duplicate-serial. The station must be one of the company (422 naming stationId). A new machine is available.',
    body: RegisterBody,
    idKey: 'machineId',
    handle: (body, ctx) => registerMachine(ctx.services, commandCtx(ctx), body),
  }),
  machineKit.list({
    summary: 'List machines by code: by status, and with preventive maintenance due within N days',
    description:
      'With maintenanceDueInDays the answer holds every machine whose preventive maintenance falls due within that many days or is ' +
      'already overdue (by hours or days), in one page (nextCursor null).',
    legacyQuery: ['estado', 'pmVenceEnDias'],
    filters: {
      status: Type.Optional(Type.Enum(MACHINE_STATUSES)),
      maintenanceDueInDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 730 })),
    },
    list: listMachines,
    // Due dates compare with today under the company's plan: both are part of the page.
    prepared: { context: machineListFacts },
  }),
  machineKit.read({ summary: 'Read a machine, with its next preventive maintenance' }),
  machineKit.patch({
    summary: "Correct a machine's data",
    description:
      'Partial update with a reason; If-Match is required (428 without it, 412 when the machine changed). A new code or serial ' +
      'must still be unique (409). The status is never corrected: it follows from the history.',
    body: CorrectBody,
    handle: (id, { reason, ...patch }, ctx, ifMatch) => correctMachine(ctx.services, commandCtx(ctx, reason), id, patch, ifMatch),
  }),
  route({
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
    params: IdParams,
    query: Type.Object({ patientId: IdSchema }, { additionalProperties: false }),
    responses: { 200: { description: 'The verdict', schema: StartVerdictView }, 404: machineKit.notFound404 },
    auditAccess: (input) => ({ recordType: 'machineStartVerdict', recordId: input.params.id, patientIds: [input.query.patientId] }),
    handle: async (input, ctx) => {
      const scope = tenantCtx(ctx);
      await machineModel.or404(scope, input.params.id);
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
  machineKit.history({
    summary: "The machine's history: uses, disinfections, calibrations, maintenance, tickets; who, when, why, oldest first",
    auditAs: 'machineHistory',
  }),
];
