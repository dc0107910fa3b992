// The Sistema group: liveness, readiness, the API contract (OpenAPI + docs page) and projection
// operations. It needs the whole list of groups for /openapi.json, hence a factory.
import type { GroupModule } from '../../groupModule.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { ProblemError, notFoundProblem } from '../../../problems.js';
import Type from 'typebox';
import { problem } from '../../commonSchemas.js';
import { closed } from '../shared/fieldSchemas.js';
import { buildOpenApiDocument, type OpenApiOptions } from '../../openapi.js';
import { docsAsset, docsPage, DOCS_ASSET_PREFIX } from './docsPage.js';
import { PreparedJson } from '../../preparedJson.js';
import { readiness } from './readiness.js';
import { health } from './health.js';
import { LIMITS } from '../../../limits.js';
import { auditRoutes, AUDIT_PERMISSION } from './auditRoutes.js';
import { auditProjection } from '../../../projections/sistema/auditProjection.js';
import { integrityRoutes } from './integrityRoutes.js';
import { backupRoutes } from './backupRoutes.js';
import { feedRoute } from './feedRoutes.js';
import { platformIntegrityRoutes } from './platformIntegrityRoutes.js';
import { keyRotationRoutes } from './keyRotationRoutes.js';
import { exportRoutes, EXPORT_PERMISSION } from './exportRoutes.js';
import { webhookRoutes } from './webhookRoutes.js';
import { platformExportRoutes } from './platformExportRoutes.js';
import { WEBHOOKS_PERMISSION } from './webhookSchemas.js';
import { webhookProjection } from '../../../projections/sistema/webhookProjection.js';
import { webhookDeliveries } from '../../../processes/webhooks/webhookDeliveries.js';
import { webhookDispatch } from '../../../processes/webhooks/webhookDispatch.js';
import {
  HealthSchema,
  OpenApiDocumentSchema,
  ProjectionListSchema,
  ProjectionNameParams,
  ProjectionStatusSchema,
  ReadySchema,
  RebuildStartedSchema,
} from './schemas.js';

export const SISTEMA_TAG = 'Sistema';

const statusUrl = (name: string) => `/sistema/proyecciones/${encodeURIComponent(name)}`;

export function sistemaGroup(getGroups: () => readonly GroupModule[], openApiOptions: OpenApiOptions = {}): GroupModule {
  let document: PreparedJson | null = null;
  // Rebuilds started by this process and not finished, so a double POST does not start two.
  const rebuilding = new Set<string>();

  const routes: RouteDecl[] = [
    {
      method: 'get',
      path: '/health',
      tag: SISTEMA_TAG,
      auth: 'public',
      summary: 'Liveness: the process answers and no projection has been failing for long',
      responses: {
        200: { description: 'Alive', schema: HealthSchema },
        503: problem(
          `A projection has been failing (and retrying) for more than ${LIMITS.projections.unhealthyAfterFailedSeconds} s ` +
            '(`/problems/projection-failed`; `projections` names them): restart the process or see /sistema/proyecciones',
          { 'Retry-After': 'Seconds to wait' },
        ),
      },
      handle: async (_input, ctx) => ({ status: 200, body: await health(ctx.services) }),
    },
    {
      method: 'get',
      path: '/ready',
      tag: SISTEMA_TAG,
      auth: 'public',
      summary: 'Readiness: stores open and projections caught up',
      responses: {
        200: { description: 'Ready to serve', schema: ReadySchema },
        503: problem('Not ready (`/problems/not-ready`): see `checks`', { 'Retry-After': 'Seconds to wait' }),
      },
      handle: async (_input, ctx) => ({ status: 200, body: await readiness(ctx.services) }),
    },
    {
      method: 'get',
      path: '/openapi.json',
      tag: SISTEMA_TAG,
      auth: 'public',
      summary: 'This API contract (OpenAPI 3.1)',
      responses: { 200: { description: 'The OpenAPI document', schema: OpenApiDocumentSchema } },
      handle: () => {
        // Serialized once: its ETag and compressed forms are then made once too (~690 KB of JSON).
        document ??= PreparedJson.of(buildOpenApiDocument(getGroups(), openApiOptions), 'static');
        return Promise.resolve({ status: 200, body: document, headers: { 'Cache-Control': 'no-cache' } });
      },
    },
    {
      method: 'get',
      path: '/docs',
      tag: SISTEMA_TAG,
      auth: 'public',
      summary: 'Interactive documentation (Swagger UI, served locally)',
      responses: {
        200: {
          description: 'HTML page rendering /openapi.json',
          contentType: 'text/html',
          headers: { 'Content-Security-Policy': "Only this service's own scripts" },
        },
      },
      handle: () => docsPage(),
    },
    route({
      method: 'get',
      path: `${DOCS_ASSET_PREFIX}/{file}`,
      tag: SISTEMA_TAG,
      auth: 'public',
      summary: 'Static files of the documentation page',
      params: closed({ file: Type.String({ minLength: 1, maxLength: 64 }) }),
      responses: {
        200: { description: 'A CSS, JavaScript or PNG file', contentType: 'application/octet-stream' },
        404: problem('No such asset'),
      },
      handle: (input) => docsAsset(input.params.file),
    }),
    {
      method: 'get',
      path: '/sistema/proyecciones',
      tag: SISTEMA_TAG,
      auth: 'platform',
      summary: 'Status of every projection (state, checkpoint, lag, rebuild progress)',
      responses: { 200: { description: 'Projection runner status', schema: ProjectionListSchema } },
      handle: async (_input, ctx) => ({ status: 200, body: { items: await ctx.services.projections.status() } }),
    },
    route({
      method: 'get',
      path: '/sistema/proyecciones/{name}',
      tag: SISTEMA_TAG,
      auth: 'platform',
      summary: 'Status of one projection (watch a rebuild here)',
      params: ProjectionNameParams,
      responses: { 200: { description: 'Projection status', schema: ProjectionStatusSchema }, 404: problem('No such projection') },
      handle: async (input, ctx) => {
        const { name } = input.params;
        const status = (await ctx.services.projections.status()).find((s) => s.name === name);
        if (!status) throw notFoundProblem(`No projection named ${name}`);
        return { status: 200, body: status };
      },
    }),
    route({
      method: 'post',
      path: '/sistema/proyecciones/{name}/reconstruir',
      tag: SISTEMA_TAG,
      auth: 'platform',
      summary: 'Rebuild a projection from the event log (reads switch to the new copy when done)',
      params: ProjectionNameParams,
      responses: {
        202: {
          description: 'Rebuild started; follow it at Location',
          schema: RebuildStartedSchema,
          headers: { Location: 'Status of the projection' },
        },
        404: problem('No such projection'),
        409: problem(
          'A rebuild of this projection is already running (`/problems/rebuild-in-progress`), or another instance projects it (`/problems/not-projector`)',
        ),
      },
      handle: async (input, ctx) => {
        const { name } = input.params;
        const { projections, logger } = ctx.services;
        const status = (await projections.status()).find((s) => s.name === name);
        if (!status) throw notFoundProblem(`No projection named ${name}`);
        if (rebuilding.has(name) || status.state === 'rebuilding') {
          throw new ProblemError(409, 'rebuild-in-progress', 'Conflict', `Projection ${name} is already being rebuilt`);
        }
        if (status.state === 'standby') {
          throw new ProblemError(
            409,
            'not-projector',
            'Conflict',
            `Another instance projects ${name} (it holds the projector lease); ask it`,
          );
        }
        rebuilding.add(name);
        logger.info('projection rebuild requested', { projection: name, actor: ctx.auth?.userId, correlationId: ctx.correlationId });
        void projections
          .rebuild(name)
          .then(() => logger.info('projection rebuild finished', { projection: name, correlationId: ctx.correlationId }))
          .catch((err: unknown) =>
            logger.error('projection rebuild failed', { projection: name, correlationId: ctx.correlationId, error: err }),
          )
          .finally(() => rebuilding.delete(name));
        return {
          status: 202,
          body: { projection: name, state: 'rebuilding', statusUrl: statusUrl(name) },
          headers: { Location: statusUrl(name) },
        };
      },
    }),
    ...auditRoutes,
    ...integrityRoutes,
    ...backupRoutes,
    feedRoute,
    ...platformIntegrityRoutes,
    ...keyRotationRoutes,
    ...exportRoutes(getGroups),
    ...platformExportRoutes(getGroups),
    ...webhookRoutes,
  ];

  return {
    tag: SISTEMA_TAG,
    description:
      'Operation of the service: health, readiness, this contract and its documentation, projection status and rebuilds, the audit trail and the proof that the log was not altered',
    // Company routes: the audit trail and tamper evidence need sistema:audit, exports sistema:export (the auditor holds both),
    // webhook endpoints sistema:webhooks (the administrator only); the others are public or platform operations.
    permissions: [AUDIT_PERMISSION, EXPORT_PERMISSION, WEBHOOKS_PERMISSION],
    routes,
    projections: [auditProjection, webhookProjection],
    processes: [webhookDeliveries],
    periodicTasks: [webhookDispatch],
  };
}
