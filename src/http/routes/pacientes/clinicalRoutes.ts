// Clinical facts recorded on a patient: status, dry weight, serology, allergies, coverage, vascular accesses.
// Each answers the patient as it now is, with its new ETag; If-Match is optional (412 when it does not match).
import Type, { type Static, type TSchema } from 'typebox';
import { mustBeCompanyClients } from '../../../commands/pacientes/coverageClientWrites.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { newId, uuidV5 } from '../../../commands/eventIds.js';
import { patientCommand } from '../../../commands/pacientes/patientWrites.js';
import type { WriteOutcome } from '../../../queries/recordModel.js';
import { tenantCtx } from '../shared/recordSupport.js';
import {
  AccessStatusBody,
  AllergyInputSchema,
  ChangeStatusBody,
  CoverageInputSchema,
  CreateAccessBody,
  DryWeightBody,
  EndCoverageBody,
  SerologyInputSchema,
} from './patientSchemas.js';
import {
  AccessParams,
  commandCtx,
  conflict409,
  CoverageParams,
  notFound404,
  ok,
  PatientParams,
  patientKit,
  precondition412,
  RECORD_HEADERS,
  TAG,
  withFieldPointers,
  WRITE,
} from './routeSupport.js';
import { PatientView } from './viewSchemas.js';

type Write<PS extends TSchema, BS extends TSchema> = (
  input: { params: Static<PS>; body: Static<BS> },
  ctx: RequestContext,
  ifMatch: number | null,
) => Promise<WriteOutcome>;

/** A POST on a patient's sub-resource: If-Match optional, field rules as 422, the patient as it now is in the answer. */
function clinicalRoute<BS extends TSchema, PS extends TSchema = typeof PatientParams>(decl: {
  path: string;
  summary: string;
  description?: string;
  params?: PS;
  body: BS;
  created: boolean;
  write: Write<PS, BS>;
}): RouteDecl {
  const { created } = decl;
  return route({
    method: 'post',
    path: `/pacientes/{id}${decl.path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: decl.summary,
    ...(decl.description ? { description: decl.description } : {}),
    body: decl.body,
    params: (decl.params ?? PatientParams) as PS,
    idempotent: created,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: {
      [created ? 201 : 200]: ok(
        'The patient as it now is',
        PatientView,
        created ? { ...RECORD_HEADERS, Location: 'The patient record, which lists the new entry' } : RECORD_HEADERS,
      ),
      404: notFound404,
      409: conflict409,
      412: precondition412,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const typed = input as unknown as { params: Static<PS>; body: Static<BS> };
        const result = await decl.write(typed, ctx, ifMatchRevision(input.headers['if-match']));
        return patientKit.answer(ctx, (input.params as { id: string }).id, result, created ? 201 : 200);
      }),
  });
}

/** Id of a new entry; a retried request (same Idempotency-Key) gets the same id. */
const entryId = (ctx: RequestContext, kind: string): string =>
  ctx.idempotencyKey ? uuidV5(`${kind}\u0000${ctx.idempotencyKey}`) : newId();

const events = (ctx: RequestContext) => ctx.services.events;

export const clinicalRoutes: RouteDecl[] = [
  clinicalRoute({
    path: '/estado',
    summary: 'Change the status of a patient (with a reason)',
    description:
      'active -> any; hospitalized -> active, transferred, transplanted, discharged, deceased; transferred, discharged -> active, deceased; ' +
      'transplanted, recovered -> active, discharged, deceased; deceased is terminal. Other changes answer 409 invalid-status-transition.',
    body: ChangeStatusBody,
    created: false,
    write: ({ params, body }, ctx, ifMatch) =>
      patientCommand(events(ctx), commandCtx(ctx, body.reason), params.id, 'ChangePatientStatus', body, ifMatch),
  }),
  clinicalRoute({
    path: '/peso-seco',
    summary: 'Prescribe a dry weight',
    body: DryWeightBody,
    created: true,
    write: ({ params, body: { reason, ...data } }, ctx, ifMatch) =>
      patientCommand(events(ctx), commandCtx(ctx, reason), params.id, 'PrescribeDryWeight', data, ifMatch),
  }),
  clinicalRoute({
    path: '/serologias',
    summary: 'Record a serology result (updates the isolation it implies)',
    description: 'Latest result per test counts: HBsAg+ -> isolation HBV, anti-HCV+ -> HCV, HIV+ -> HIV; indeterminate implies none.',
    body: SerologyInputSchema,
    created: true,
    write: ({ params, body }, ctx, ifMatch) => patientCommand(events(ctx), commandCtx(ctx), params.id, 'RecordSerology', body, ifMatch),
  }),
  clinicalRoute({
    path: '/alergias',
    summary: 'Record an allergy',
    body: AllergyInputSchema,
    created: true,
    write: ({ params, body }, ctx, ifMatch) => {
      const data = { ...body, allergyId: entryId(ctx, 'allergy') };
      return patientCommand(events(ctx), commandCtx(ctx), params.id, 'RecordAllergy', data, ifMatch);
    },
  }),
  clinicalRoute({
    path: '/coberturas',
    summary: 'Add a coverage by a payer',
    body: CoverageInputSchema,
    created: true,
    write: async ({ params, body }, ctx, ifMatch) => {
      await mustBeCompanyClients(ctx.services.events, tenantCtx(ctx).auth.tenantId, [body], () => '', params.id);
      const data = { ...body, coverageId: entryId(ctx, 'coverage') };
      return patientCommand(events(ctx), commandCtx(ctx), params.id, 'AddCoverage', data, ifMatch);
    },
  }),
  clinicalRoute({
    path: '/coberturas/{coverageId}/fin',
    summary: 'End a coverage (with a reason)',
    params: CoverageParams,
    body: EndCoverageBody,
    created: false,
    write: ({ params: { id, coverageId }, body }, ctx, ifMatch) =>
      patientCommand(events(ctx), commandCtx(ctx, body.reason), id, 'EndCoverage', { ...body, coverageId }, ifMatch),
  }),
  clinicalRoute({
    path: '/accesos-vasculares',
    summary: 'Create a vascular access',
    body: CreateAccessBody,
    created: true,
    write: ({ params, body }, ctx, ifMatch) => {
      const data = { ...body, accessId: entryId(ctx, 'vascularAccess') };
      return patientCommand(events(ctx), commandCtx(ctx), params.id, 'CreateVascularAccess', data, ifMatch);
    },
  }),
  clinicalRoute({
    path: '/accesos-vasculares/{accessId}/estado',
    summary: 'Change the status of a vascular access',
    description: 'At most one active access is primary: activating with primary=true moves the mark; a failed or removed access loses it.',
    params: AccessParams,
    body: AccessStatusBody,
    created: false,
    write: ({ params: { id, accessId }, body }, ctx, ifMatch) =>
      patientCommand(events(ctx), commandCtx(ctx, body.reason), id, 'ChangeVascularAccessStatus', { ...body, accessId }, ifMatch),
  }),
  clinicalRoute({
    path: '/accesos-vasculares/{accessId}/principal',
    summary: 'Make an active vascular access the primary one',
    params: AccessParams,
    body: Type.Object({}, { additionalProperties: false }),
    created: false,
    write: ({ params: { id, accessId } }, ctx, ifMatch) =>
      patientCommand(events(ctx), commandCtx(ctx), id, 'DesignatePrimaryAccess', { accessId }, ifMatch),
  }),
];
