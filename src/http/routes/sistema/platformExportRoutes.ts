// The platform exports any company (what `dialysis-ops export` asks for with the operator token): the same job
// registry and library as the company's own routes, audited alike (CompanyExported in the company's log).
import { route, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { notFoundProblem } from '../../../problems.js';
import type { GroupModule } from '../../groupModule.js';
import { companyDoc } from '../../../queries/empresas/companies.js';
import { closed, IdSchema } from '../shared/fieldSchemas.js';
import { TenantParams } from './integritySchemas.js';
import { ExportBody, ExportJobSchema } from './exportSchemas.js';
import { exportsOf, startExport, view } from './exportRoutes.js';

const TAG = 'Sistema';
const BASE = '/sistema/empresas/{tenant}/exportaciones';
const urlOf = (tenant: string) => (id: string) => `/sistema/empresas/${tenant}/exportaciones/${id}`;

export function platformExportRoutes(getGroups: () => readonly GroupModule[]): RouteDecl[] {
  return [
    route({
      method: 'post',
      path: BASE,
      tag: TAG,
      auth: 'platform',
      summary: 'Platform: export a company',
      params: TenantParams,
      body: ExportBody,
      responses: {
        202: { description: 'Started', schema: ExportJobSchema, headers: { Location: 'Its status' } },
        404: problem('No such company'),
        409: problem('One is running (`/problems/export-running`)'),
        422: problem('Bad `after`'),
      },
      handle: async (input, ctx) => {
        const { tenant } = input.params;
        await companyDoc(ctx.services, tenant);
        const job = await startExport(ctx, tenant, input.body, getGroups, urlOf(tenant));
        return { status: 202, body: view(job), headers: { Location: urlOf(tenant)(job.id) } };
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/{id}`,
      tag: TAG,
      auth: 'platform',
      summary: 'Platform: an export',
      params: closed({ ...TenantParams.properties, id: IdSchema }),
      responses: { 200: { description: 'The export', schema: ExportJobSchema }, 404: problem('No such export') },
      handle: async (input, ctx) => {
        const job = await exportsOf(ctx.services).get(input.params.tenant, input.params.id);
        if (!job) throw notFoundProblem('No such export (or it expired)');
        return { status: 200, body: view(job) };
      },
    }),
  ];
}
