// Clinical facts recorded on a patient: status, dry weight, serology, allergies, coverage, vascular accesses.
// Each answers the patient as it now is, with its new ETag; If-Match is optional (412 when it does not match).
import { mustBeCompanyClients } from '../../../commands/pacientes/coverageClientWrites.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { handTypedRoute, type HttpResult, type RequestContext, type RouteDecl, type RouteInput } from '../../routeTypes.js';
import { newId, uuidV5 } from '../../../commands/eventIds.js';
import type {
  ChangePatientStatusData,
  ChangeVascularAccessStatusData,
  CreateVascularAccessData,
  EndCoverageData,
  PrescribeDryWeightData,
} from '../../../commands/pacientes/patientCommands.js';
import type { AllergyEntry, CoverageEntry, SerologyEntry } from '../../../commands/pacientes/patientTypes.js';
import { patientCommand } from '../../../commands/pacientes/patientWrites.js';
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
  patientAnswer,
  precondition412,
  RECORD_HEADERS,
  TAG,
  withFieldPointers,
  WRITE,
  type AccessIdParams,
  type CoverageIdParams,
  type NoInput,
  type PatientIdParams,
} from './routeSupport.js';
import { PatientView } from './viewSchemas.js';

type Run<P, B> = (input: RouteInput<P, NoInput, B>, ctx: RequestContext, ifMatch: number | null) => Promise<HttpResult>;

/** A POST on a patient's sub-resource: If-Match optional, field rules as 422, patient in the answer. */
function clinicalRoute<B, P extends PatientIdParams = PatientIdParams>(
  path: string,
  summary: string,
  body: Record<string, unknown>,
  created: boolean,
  run: Run<P, B>,
  extra: Partial<RouteDecl<P, NoInput, B>> = {},
): RouteDecl {
  return handTypedRoute<P, NoInput, B>({
    method: 'post',
    path: `/pacientes/{id}${path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary,
    body,
    params: PatientParams,
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
    handle: (input, ctx) => withFieldPointers(() => run(input, ctx, ifMatchRevision(input.headers['if-match']))),
    ...extra,
  });
}

/** Id of a new entry; a retried request (same Idempotency-Key) gets the same id. */
const entryId = (ctx: RequestContext, kind: string): string =>
  ctx.idempotencyKey ? uuidV5(`${kind}\u0000${ctx.idempotencyKey}`) : newId();

export const clinicalRoutes: RouteDecl[] = [
  clinicalRoute<ChangePatientStatusData>(
    '/estado',
    'Change the status of a patient (with a reason)',
    ChangeStatusBody,
    false,
    async (input, ctx, ifMatch) => {
      const { id } = input.params;
      const result = await patientCommand(
        ctx.services.events,
        commandCtx(ctx, input.body.reason),
        id,
        'ChangePatientStatus',
        input.body,
        ifMatch,
      );
      return patientAnswer(ctx, id, result, 200);
    },
    {
      description:
        'active -> any; hospitalized -> active, transferred, transplanted, discharged, deceased; transferred, discharged -> active, deceased; ' +
        'transplanted, recovered -> active, discharged, deceased; deceased is terminal. Other changes answer 409 invalid-status-transition.',
    },
  ),
  clinicalRoute<PrescribeDryWeightData & { reason?: string }>(
    '/peso-seco',
    'Prescribe a dry weight',
    DryWeightBody,
    true,
    async (input, ctx, ifMatch) => {
      const { id } = input.params;
      const { reason, ...data } = input.body;
      const result = await patientCommand(ctx.services.events, commandCtx(ctx, reason), id, 'PrescribeDryWeight', data, ifMatch);
      return patientAnswer(ctx, id, result, 201);
    },
  ),
  clinicalRoute<SerologyEntry>(
    '/serologias',
    'Record a serology result (updates the isolation it implies)',
    SerologyInputSchema,
    true,
    async (input, ctx, ifMatch) => {
      const { id } = input.params;
      const result = await patientCommand(ctx.services.events, commandCtx(ctx), id, 'RecordSerology', input.body, ifMatch);
      return patientAnswer(ctx, id, result, 201);
    },
    { description: 'Latest result per test counts: HBsAg+ -> isolation HBV, anti-HCV+ -> HCV, HIV+ -> HIV; indeterminate implies none.' },
  ),
  clinicalRoute<Omit<AllergyEntry, 'allergyId'>>(
    '/alergias',
    'Record an allergy',
    AllergyInputSchema,
    true,
    async (input, ctx, ifMatch) => {
      const { id } = input.params;
      const allergyId = entryId(ctx, 'allergy');
      const result = await patientCommand(ctx.services.events, commandCtx(ctx), id, 'RecordAllergy', { ...input.body, allergyId }, ifMatch);
      return patientAnswer(ctx, id, result, 201);
    },
  ),
  clinicalRoute<Omit<CoverageEntry, 'coverageId'>>(
    '/coberturas',
    'Add a coverage by a payer',
    CoverageInputSchema,
    true,
    async (input, ctx, ifMatch) => {
      const { id } = input.params;
      await mustBeCompanyClients(ctx.services.events, tenantCtx(ctx).auth.tenantId, [input.body], () => '', id);
      const coverageId = entryId(ctx, 'coverage');
      const result = await patientCommand(ctx.services.events, commandCtx(ctx), id, 'AddCoverage', { ...input.body, coverageId }, ifMatch);
      return patientAnswer(ctx, id, result, 201);
    },
  ),
  clinicalRoute<Omit<EndCoverageData, 'coverageId'>, CoverageIdParams>(
    '/coberturas/{coverageId}/fin',
    'End a coverage (with a reason)',
    EndCoverageBody,
    false,
    async (input, ctx, ifMatch) => {
      const { id, coverageId } = input.params;
      const result = await patientCommand(
        ctx.services.events,
        commandCtx(ctx, input.body.reason),
        id,
        'EndCoverage',
        { ...input.body, coverageId },
        ifMatch,
      );
      return patientAnswer(ctx, id, result, 200);
    },
    { params: CoverageParams },
  ),
  clinicalRoute<Omit<CreateVascularAccessData, 'accessId'>>(
    '/accesos-vasculares',
    'Create a vascular access',
    CreateAccessBody,
    true,
    async (input, ctx, ifMatch) => {
      const { id } = input.params;
      const accessId = entryId(ctx, 'vascularAccess');
      const result = await patientCommand(
        ctx.services.events,
        commandCtx(ctx),
        id,
        'CreateVascularAccess',
        { ...input.body, accessId },
        ifMatch,
      );
      return patientAnswer(ctx, id, result, 201);
    },
  ),
  clinicalRoute<Omit<ChangeVascularAccessStatusData, 'accessId'>, AccessIdParams>(
    '/accesos-vasculares/{accessId}/estado',
    'Change the status of a vascular access',
    AccessStatusBody,
    false,
    async (input, ctx, ifMatch) => {
      const { id, accessId } = input.params;
      const result = await patientCommand(
        ctx.services.events,
        commandCtx(ctx, input.body.reason),
        id,
        'ChangeVascularAccessStatus',
        { ...input.body, accessId },
        ifMatch,
      );
      return patientAnswer(ctx, id, result, 200);
    },
    {
      params: AccessParams,
      description:
        'At most one active access is primary: activating with primary=true moves the mark; a failed or removed access loses it.',
    },
  ),
  clinicalRoute<NoInput, AccessIdParams>(
    '/accesos-vasculares/{accessId}/principal',
    'Make an active vascular access the primary one',
    { type: 'object', additionalProperties: false, properties: {} },
    false,
    async (input, ctx, ifMatch) => {
      const { id, accessId } = input.params;
      const result = await patientCommand(ctx.services.events, commandCtx(ctx), id, 'DesignatePrimaryAccess', { accessId }, ifMatch);
      return patientAnswer(ctx, id, result, 200);
    },
    { params: AccessParams },
  ),
];
