// /empresas: the platform registers, lists, suspends and reactivates companies; /empresas/actual: a company admin
// reads and corrects their own company and switches its optional modules.
import Type from 'typebox';
import { route, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { MinPositionField, PageQueryFields, problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { etagOf, ifMatchHeader, ifMatchRevision, writeHeaders } from '../../recordHeaders.js';
import {
  appointAdmin,
  companyCommand,
  correctCompanyProfile,
  registerCompanyWithAdmin,
} from '../../../commands/platform/empresasWrites.js';
import { companyAt, companyDoc, companyView, listCompanies } from '../../../queries/empresas/companies.js';
import type { RecordPoint } from '../../../queries/recordModel.js';
import { AsOfQuerySchema, asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { READ_HEADERS } from '../shared/recordSupport.js';
import { sendActivationMail } from '../../../notifications/mailer.js';
import {
  badCursor400,
  behind503,
  callerOf,
  conflict409,
  IF_MATCH_PROBLEMS,
  ok,
  RECORD_HEADERS,
  tenantOf,
  WRITE_HEADERS,
} from '../shared/adminSupport.js';
import { ADMIN, READ, TAG } from './support.js';
import {
  CompanyIdParams,
  CompanyPage,
  CompanySchema,
  CorrectCompanyBody,
  ModulesBody,
  ReasonBody,
  RegisterCompanyBody,
  RegisteredSchema,
  AppointAdminBody,
  AppointedSchema,
} from './companySchemas.js';

const company404 = problem('No such company');

/** A company after a platform write (whose read model is applied before the write returns): the record write answer. */
const companyRecord = { latest: (scope: RequestContext, id: string) => companyDoc(scope.services, id), view: companyView };

function statusRoute(path: string, type: 'SuspendCompany' | 'ReactivateCompany', summary: string): RouteDecl {
  return route({
    method: 'post',
    path,
    tag: TAG,
    auth: 'platform',
    summary,
    params: CompanyIdParams,
    body: ReasonBody,
    responses: { 200: ok('The company', CompanySchema, RECORD_HEADERS), 404: company404, 409: conflict409, 503: behind503 },
    async handle({ params, body }, ctx) {
      const result = await companyCommand(
        ctx.services,
        { type, aggregateId: params.id, data: { reason: body.reason } },
        callerOf(ctx, body.reason),
      );
      return recordAnswer(ctx, companyRecord, params.id, result, 200);
    },
  });
}

/** The company as it was at a point, with the version and the event that made it. */
async function companyAsOf(ctx: RequestContext, companyId: string, point: RecordPoint): Promise<HttpResult> {
  const at = await companyAt(ctx.services, companyId, point);
  return { status: 200, body: companyView(at.doc), headers: await asOfHeaders(ctx, at) };
}

// /empresas/actual first: the router must not take 'actual' for a company id.
export const companyRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: '/empresas/actual',
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'The selected company: profile, status and modules',
    query: RecordReadQuerySchema,
    responses: { 200: ok('The company', CompanySchema, READ_HEADERS), 404: company404, 503: behind503 },
    async handle({ query }, ctx) {
      const point = pointOf(query);
      if (point) return companyAsOf(ctx, tenantOf(ctx), point);
      await awaitMinPosition(ctx, query.minPosition);
      const doc = await companyDoc(ctx.services, tenantOf(ctx));
      return { status: 200, body: companyView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route({
    method: 'patch',
    path: '/empresas/actual',
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary: "Correct the selected company's profile (If-Match required)",
    description: 'Only the fields sent change; a new tax id is checked and must be free on the platform.',
    requestHeaders: { 'If-Match': ifMatchHeader(true) },
    body: CorrectCompanyBody,
    responses: { 200: ok('The company', CompanySchema, RECORD_HEADERS), ...IF_MATCH_PROBLEMS, 503: behind503 },
    async handle({ body, headers }, ctx) {
      const ifMatch = ifMatchRevision(headers['if-match'], { required: true });
      const { reason, ...changes } = body;
      const current = await companyDoc(ctx.services, tenantOf(ctx));
      const result = await correctCompanyProfile(
        ctx.services,
        { companyId: tenantOf(ctx), changes, current: current.profile, ifMatch },
        callerOf(ctx, reason),
      );
      return recordAnswer(ctx, companyRecord, tenantOf(ctx), result, 200);
    },
  }),
  route({
    method: 'put',
    path: '/empresas/actual/modulos',
    tag: TAG,
    auth: 'tenant',
    permission: ADMIN,
    summary: 'Switch optional modules on or off (a module switched off keeps its data; its routes answer 403 module-disabled)',
    body: ModulesBody,
    responses: { 200: ok('The company', CompanySchema, RECORD_HEADERS), 409: conflict409, 503: behind503 },
    async handle({ body }, ctx) {
      const result = await companyCommand(
        ctx.services,
        { type: 'SetModules', aggregateId: tenantOf(ctx), data: { modules: body.modules } },
        callerOf(ctx, body.reason),
      );
      return recordAnswer(ctx, companyRecord, tenantOf(ctx), result, 200);
    },
  }),
  route({
    method: 'post',
    path: '/empresas',
    tag: TAG,
    auth: 'platform',
    // Not idempotent on purpose: a replayed answer is kept in the log, and this one carries a secret shown once.
    summary: 'Platform: register a company with its first company admin',
    description:
      'The tax id is checked with its check digit where the country has one (Peru RUC, Mexico RFC, Colombia NIT, Chile RUT, ' +
      'Argentina CUIT) and is unique on the platform (409 `/problems/tax-id-taken`). The company starts with the default ' +
      'clinical and administrative policy and every optional module unless `modules` says otherwise. The first admin is an existing ' +
      'account named by its id (a member at once), or a person invited by e-mail: a pending membership and a one-time token in ' +
      'this answer (shown once, also e-mailed) that activates the new account, or that the holder of an existing account accepts ' +
      'signed in (POST /auth/invitations/{companyId}/accept).',
    body: RegisterCompanyBody,
    responses: {
      201: ok('The company and its first admin', RegisteredSchema, { ...RECORD_HEADERS, Location: 'URL of the company' }),
      409: conflict409,
      503: behind503,
    },
    async handle({ body }, ctx) {
      const { modules, admin, reason, ...profile } = body;
      const caller = callerOf(ctx, reason);
      const registered = await registerCompanyWithAdmin(ctx.services, { profile, admin, ...(modules ? { modules } : {}) }, caller);
      const doc = await companyDoc(ctx.services, registered.companyId);
      if (registered.admin.activation && 'email' in admin) {
        await sendActivationMail(ctx.services, {
          to: admin.email,
          name: admin.name,
          companyName: doc.name,
          opens: registered.opens ?? 'account',
          ...registered.admin.activation,
        });
      }
      return {
        status: 201,
        body: { company: companyView(doc), admin: registered.admin },
        headers: writeHeaders({ revision: doc.revision, position: registered.position, location: `/empresas/${registered.companyId}` }),
      };
    },
  }),
  route({
    method: 'get',
    path: '/empresas',
    legacyQuery: ['estado'],
    tag: TAG,
    auth: 'platform',
    summary: 'Platform: the companies, by trade name',
    query: Type.Object(
      { ...PageQueryFields, ...MinPositionField, status: Type.Optional(Type.Enum(['activa', 'suspendida'], { type: 'string' })) },
      { additionalProperties: false },
    ),
    responses: { 200: ok('A page of companies', CompanyPage), 400: badCursor400, 503: behind503 },
    async handle({ query }, ctx) {
      await awaitMinPosition(ctx, query.minPosition);
      const status = query.status === 'activa' ? 'active' : query.status === 'suspendida' ? 'suspended' : undefined;
      return {
        status: 200,
        // Ajv's useDefaults filled limit from the schema's default.
        body: await listCompanies(ctx.services, {
          limit: query.limit,
          cursor: query.cursor ?? null,
          ...(status ? { status } : {}),
          ...(query.updatedSince ? { updatedSince: query.updatedSince } : {}),
        }),
      };
    },
  }),
  route({
    method: 'get',
    path: '/empresas/{id}',
    tag: TAG,
    auth: 'platform',
    summary: 'Platform: a company',
    params: CompanyIdParams,
    query: AsOfQuerySchema,
    responses: { 200: ok('The company', CompanySchema, READ_HEADERS), 404: company404 },
    async handle({ params, query }, ctx) {
      const point = pointOf(query);
      if (point) return companyAsOf(ctx, params.id, point);
      const doc = await companyDoc(ctx.services, params.id);
      return { status: 200, body: companyView(doc), headers: { ETag: etagOf(doc.revision) } };
    },
  }),
  route({
    method: 'post',
    path: '/empresas/{id}/administradores',
    tag: TAG,
    auth: 'platform',
    summary: 'Platform: appoint another company admin (an existing account, or a new person invited by e-mail)',
    description:
      'For a company whose admins left or lost their access: the platform names a new one. An account named by its id is an ' +
      'admin at once; a person named by e-mail is invited (a pending membership with a one-time token in this answer, shown ' +
      'once: it activates a new account, or the holder of an existing one accepts with it signed in).',
    params: CompanyIdParams,
    body: AppointAdminBody,
    responses: {
      201: ok('The appointed admin', AppointedSchema, { ...WRITE_HEADERS, Location: 'URL of the user in the company' }),
      404: company404,
      409: conflict409,
      503: behind503,
    },
    async handle({ params, body }, ctx) {
      const doc = await companyDoc(ctx.services, params.id);
      const { admin, opens, position } = await appointAdmin(ctx.services, params.id, body.admin, callerOf(ctx, body.reason));
      if (admin.activation && 'email' in body.admin) {
        const to = body.admin.email.trim().toLowerCase();
        const mail = { to, name: body.admin.name, companyName: doc.name, opens: opens ?? 'account', ...admin.activation };
        await sendActivationMail(ctx.services, mail);
      }
      return { status: 201, body: admin, headers: writeHeaders({ position, location: `/usuarios/${admin.userId}` }) };
    },
  }),
  statusRoute(
    '/empresas/{id}/suspension',
    'SuspendCompany',
    'Platform: suspend a company (its writes answer 403 company-suspended; reads stay for audit)',
  ),
  statusRoute('/empresas/{id}/reactivacion', 'ReactivateCompany', 'Platform: reactivate a suspended company'),
];
