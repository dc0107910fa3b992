// GET /dialisis/sesiones/{id}/hoja: the session sheet as PDF (issue 10 item 9).
import { MinPositionQuerySchema, problem } from '../../commonSchemas.js';
import { LIMITS } from '../../../limits.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { sessionModel } from '../../../queries/dialisis/sessions.js';
import { SHEET_READS, sessionSheetOf } from '../../../queries/dialisis/sessionSheetData.js';
import { IdParams } from '../shared/fieldSchemas.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { READ, TAG } from './permissions.js';

export const sheetRoute: RouteDecl = route({
  method: 'get',
  path: '/dialisis/sesiones/{id}/hoja',
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary:
    'The session sheet (PDF): identification, prescription, pre / intra / post with a chart, complications, medications, signatures, amendments',
  description:
    `Rendered in a pool of worker threads, never on the event loop. A company has at most ${LIMITS.renders.perCompany} sheets rendering ` +
    `at once and ${LIMITS.renders.queuedPerCompany} more waiting; one more answers 429 with Retry-After (503 when ` +
    `${LIMITS.renders.queuedTotal} wait across all companies, or a render runs over ${LIMITS.renders.jobTimeoutMs / 1000} s). ` +
    'A session at the same revision, showing the same data, is answered from a cache with the same bytes (its "Generado el" is ' +
    `the first render's); a new revision renders again. The cache keeps up to ${LIMITS.renders.cacheMaxBytes / 1024 / 1024} MiB of sheets.`,
  params: IdParams,
  query: MinPositionQuerySchema,
  responses: {
    200: { description: 'The sheet', contentType: 'application/pdf', schema: { type: 'string', format: 'binary' } },
    404: problem("No such session in the selected company (another company's session is reported the same way)"),
    429: problem(`The company already has ${LIMITS.renders.perCompany + LIMITS.renders.queuedPerCompany} sheets rendering or waiting`, {
      'Retry-After': 'Seconds to wait',
    }),
    503: problem(
      'The read model did not reach minPosition in time (`/problems/projection-behind`), too many renders wait (`/problems/render-busy`) ' +
        'or one ran too long (`/problems/render-unavailable`); retry',
      { 'Retry-After': 'Seconds to wait' },
    ),
  },
  auditAccess: (input) => ({ recordType: 'dialysisSessionSheet', recordId: input.params.id }),
  handle: async (input, ctx) => {
    // Made of the session and of what it names: a write to any of them is waited for.
    await awaitMinPosition(ctx, input.query.minPosition, SHEET_READS);
    const scope = tenantCtx(ctx);
    const doc = await sessionModel.or404(scope, input.params.id);
    const sheet = await sessionSheetOf(scope, doc, ctx.services.now().toISOString());
    const pdf = await ctx.services.renders.sessionSheet.render(scope.auth.tenantId, doc.id, doc.revision, sheet, ctx.rateLimits);
    return { status: 200, body: pdf, contentType: 'application/pdf', auditPatientIds: [doc.patientId] };
  },
});
