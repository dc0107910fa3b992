// GET /generador/openapi.json: the company's own contract, the record routes and schemas of the modules it serves and
// the caller may read; another company's modules never appear (the modules are read in the caller's company only).
import { mayOnModule } from '../../../commands/generador/shared/modulePermissions.js';
import { servedModules } from '../../../queries/generador/modules.js';
import { companyDoc } from '../../../queries/empresas/companies.js';
import { tokenRouteOf } from '../../openapi.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { authGroup } from '../auth/index.js';
import { OpenApiDocumentSchema } from '../sistema/schemas.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { buildModuleOpenApi } from './moduleOpenapi.js';
import { TAG } from './names.js';

/** The modules of the document: those the caller may read (`mod.<code>:read`, or every one with 'mod.*'). */
export const readableBy =
  (permissions: ReadonlySet<string>) =>
  (code: string): boolean =>
    mayOnModule(permissions, code, 'read');

const tokenRoute = tokenRouteOf([authGroup]);

// Built documents by company, name and the modules' revisions: a document is built once per change, not per request.
const DOCUMENTS_KEPT = 200;
const documents = new Map<string, Record<string, unknown>>();
function companyDocument(key: string, build: () => Record<string, unknown>): Record<string, unknown> {
  let doc = documents.get(key);
  if (doc) documents.delete(key);
  else doc = build();
  documents.set(key, doc);
  if (documents.size > DOCUMENTS_KEPT) documents.delete(documents.keys().next().value!);
  return doc;
}

export const contractRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: '/generador/openapi.json',
    tag: TAG,
    auth: 'tenant',
    summary: "The company's contract (OpenAPI 3.1): its modules' record routes and named schemas",
    description: 'Lists the published and retired modules the caller may read (`mod.<code>:read`); /docs?doc=company renders it.',
    responses: { 200: { description: 'The OpenAPI document', schema: OpenApiDocumentSchema } },
    handle: async (_input, ctx) => {
      const scope = tenantCtx(ctx);
      const readable = readableBy(scope.auth.permissions);
      const modules = (await servedModules(scope)).filter((m) => readable(m.code));
      const company = await companyDoc(ctx.services, scope.auth.tenantId).catch(() => null);
      const key = JSON.stringify([scope.auth.tenantId, company?.name ?? null, modules.map((m) => [m.code, m.revision])]);
      const body = companyDocument(key, () =>
        buildModuleOpenApi(modules, { ...(company ? { companyName: company.name } : {}), ...(tokenRoute ? { tokenRoute } : {}) }),
      );
      return { status: 200, body };
    },
  }),
];
