// The platform verifies any company's (or the platform's own) hash chain: what `dialysis-ops verify` asks for; the
// start is an audited read of that event log, like the company's own verification route.
import { route, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { notFoundProblem } from '../../../problems.js';
import { companyDoc } from '../../../queries/empresas/companies.js';
import { PLATFORM_TENANT } from '../../../stores/eventStore.js';
import { closed } from '../shared/fieldSchemas.js';
import { TenantParams, VerificationParams, VerificationSchema } from './integritySchemas.js';

const TAG = 'Sistema';
const BASE = '/sistema/integridad/empresas/{tenant}/verificacion';
const TenantVerificationParams = closed({ ...TenantParams.properties, ...VerificationParams.properties });

export const platformIntegrityRoutes: RouteDecl[] = [
  route({
    method: 'post',
    path: BASE,
    tag: TAG,
    auth: 'platform',
    summary: "Platform: verify a company's (or the platform's) hash chain",
    params: TenantParams,
    auditAccess: (input) => ({ recordType: 'eventLog', recordId: input.params.tenant }),
    responses: {
      202: { description: 'Started (or already running)', schema: VerificationSchema, headers: { Location: 'Its status' } },
      404: problem('No such company'),
    },
    handle: async (input, ctx) => {
      const { tenant } = input.params;
      if (tenant !== PLATFORM_TENANT) await companyDoc(ctx.services, tenant);
      const v = ctx.services.integrity.verifications.start(tenant, ctx.auth!.userId);
      return { status: 202, body: v, headers: { Location: `/sistema/integridad/empresas/${tenant}/verificacion/${v.id}` } };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/{id}`,
    tag: TAG,
    auth: 'platform',
    summary: 'Platform: progress and outcome of a verification',
    params: TenantVerificationParams,
    responses: { 200: { description: 'Verification', schema: VerificationSchema }, 404: problem('No such verification') },
    handle: (input, ctx) => {
      const v = ctx.services.integrity.verifications.get(input.params.tenant, input.params.id);
      if (!v) throw notFoundProblem('No such verification');
      return Promise.resolve({ status: 200, body: v });
    },
  }),
];
