// Company exports over HTTP: start one in the background, follow its progress, download its two gzip NDJSON parts
// once ready (streamed from the file). `sistema:export`: the company administrator and the auditor role.
import fs from 'node:fs';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { ProblemError, notFoundProblem } from '../../../problems.js';
import type { GroupModule } from '../../groupModule.js';
import type { AppServices } from '../../../services.js';
import {
  createCompanyExports,
  EXPORT_KEPT_DAYS,
  ExportRunningError,
  type CompanyExportJob,
  type CompanyExports,
} from '../../../ops/companyExports.js';
import { ExportPositionError, recordCollectionsOf } from '../../../ops/exportCompany.js';
import { EVENTS_PART, RECORDS_PART } from '../../../ops/exportFormat.js';
import { ExportBody, ExportJobSchema, ExportParams } from './exportSchemas.js';

export const EXPORT_PERMISSION = 'sistema:export';
const TAG = 'Sistema';
const BASE = '/sistema/exportaciones';
const jobUrl = (id: string) => `${BASE}/${id}`;

/** One registry per running service (the routes are declared once, services are made per start). */
const registries = new WeakMap<AppServices, CompanyExports>();
export const exportsOf = (services: AppServices): CompanyExports => {
  let registry = registries.get(services);
  if (!registry) registries.set(services, (registry = createCompanyExports(services)));
  return registry;
};

export const view = ({ tenant: _tenant, ...job }: CompanyExportJob) => job;

/** Starts a company's export for the caller (a company principal, or the platform's for any company). */
export async function startExport(
  ctx: RequestContext,
  tenant: string,
  body: { after?: string; reason?: string },
  getGroups: () => readonly GroupModule[],
  urlOf: (id: string) => string,
): Promise<CompanyExportJob> {
  const auth = ctx.auth!;
  const caller = {
    actor: auth.userId,
    sessionId: auth.sessionId,
    correlationId: ctx.correlationId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    reason: body.reason ?? null,
  };
  const collections = recordCollectionsOf(getGroups().flatMap((g) => g.projections));
  const after = body.after !== undefined ? BigInt(body.after) : undefined;
  try {
    return await exportsOf(ctx.services).start({ tenant, ...(after !== undefined ? { after } : {}), caller, collections });
  } catch (err) {
    if (err instanceof ExportRunningError)
      throw new ProblemError(409, 'export-running', 'Conflict', `Export ${err.running.id} of the company is still running`, {
        Location: urlOf(err.running.id),
      });
    if (err instanceof ExportPositionError)
      throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', err.message, {}, [
        { pointer: '/body/after', message: err.message },
      ]);
    throw err;
  }
}

async function jobOf(ctx: RequestContext, id: string): Promise<CompanyExportJob> {
  const job = await exportsOf(ctx.services).get(ctx.auth!.tenantId!, id);
  if (!job) throw notFoundProblem('No such export (or it expired)');
  return job;
}

function download(part: 'events' | 'records'): RouteDecl {
  const file = part === 'events' ? EVENTS_PART : RECORDS_PART;
  return route({
    method: 'get',
    path: `${BASE}/{id}/${part === 'events' ? 'eventos' : 'registros'}`,
    tag: TAG,
    auth: 'tenant',
    permission: EXPORT_PERMISSION,
    summary: `Download ${file} (gzip NDJSON, see README)`,
    params: ExportParams,
    auditAccess: (input) => ({ recordType: 'companyExport', recordId: input.params.id }),
    responses: {
      200: {
        description: file,
        contentType: 'application/gzip',
        headers: { 'Content-Disposition': `attachment; filename="${file}"`, 'Content-Length': 'Bytes' },
      },
      404: problem('No such export'),
      409: problem('Not ready (`/problems/export-not-ready`)'),
    },
    handle: async (input, ctx) => {
      const job = await jobOf(ctx, input.params.id);
      if (job.state !== 'ready')
        throw new ProblemError(409, 'export-not-ready', 'Conflict', `Export ${job.id} is ${job.state}: follow it at ${jobUrl(job.id)}`);
      const path = exportsOf(ctx.services).file(job, part);
      const size = (await fs.promises.stat(path)).size;
      return {
        status: 200,
        body: fs.createReadStream(path),
        contentType: 'application/gzip',
        headers: { 'Content-Disposition': `attachment; filename="${file}"`, 'Content-Length': String(size) },
      };
    },
  });
}

export function exportRoutes(getGroups: () => readonly GroupModule[]): RouteDecl[] {
  return [
    route({
      method: 'post',
      path: BASE,
      tag: TAG,
      auth: 'tenant',
      permission: EXPORT_PERMISSION,
      summary: 'Export the company (background, gzip NDJSON)',
      description: `One at a time per company; kept ${EXPORT_KEPT_DAYS} days.`,
      body: ExportBody,
      responses: {
        202: { description: 'Started; follow it at Location', schema: ExportJobSchema, headers: { Location: 'Its status' } },
        409: problem('One is running (`/problems/export-running`)'),
        422: problem('Bad `after`'),
      },
      handle: async (input, ctx) => {
        const job = await startExport(ctx, ctx.auth!.tenantId!, input.body, getGroups, jobUrl);
        return { status: 202, body: view(job), headers: { Location: jobUrl(job.id) } };
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/{id}`,
      tag: TAG,
      auth: 'tenant',
      permission: EXPORT_PERMISSION,
      summary: 'State and progress of an export',
      params: ExportParams,
      responses: {
        200: { description: 'The export', schema: ExportJobSchema },
        404: problem('No such export of the company (or it expired)'),
      },
      handle: async (input, ctx) => ({ status: 200, body: view(await jobOf(ctx, input.params.id)) }),
    }),
    download('events'),
    download('records'),
  ];
}
