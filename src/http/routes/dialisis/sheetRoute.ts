// GET /dialisis/sesiones/{id}/hoja: the session sheet as PDF (issue 10 item 9).
import { minPositionQueryProperty, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { SESSIONS_PROJECTION } from '../../../projections/dialisis/sessionsProjection.js';
import { sessionOr404 } from '../../../queries/dialisis/sessions.js';
import { sessionSheetOf } from '../../../queries/dialisis/sessionSheetData.js';
import { renderSessionSheet } from '../../../queries/dialisis/sessionSheet/renderSessionSheet.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { tenantCtx, unavailable503, type MinPositionQuery } from '../shared/recordSupport.js';
import { READ, TAG } from './permissions.js';

export const sheetRoute: RouteDecl = route<{ id: string }, MinPositionQuery>({
  method: 'get',
  path: '/dialisis/sesiones/{id}/hoja',
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary:
    'The session sheet (PDF): identification, prescription, pre / intra / post with a chart, complications, medications, signatures, amendments',
  params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } },
  query: { type: 'object', additionalProperties: false, properties: { ...minPositionQueryProperty } },
  responses: {
    200: { description: 'The sheet', contentType: 'application/pdf', schema: { type: 'string', format: 'binary' } },
    404: problem("No such session in the selected company (another company's session is reported the same way)"),
    503: unavailable503,
  },
  auditAccess: (input) => ({ recordType: 'dialysisSessionSheet', recordId: input.params.id }),
  handle: async (input, ctx) => {
    await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION]);
    const scope = tenantCtx(ctx);
    const doc = await sessionOr404(scope, input.params.id);
    const sheet = await sessionSheetOf(scope, doc, ctx.services.now().toISOString());
    return { status: 200, body: await renderSessionSheet(sheet), contentType: 'application/pdf', auditPatientIds: [doc.patientId] };
  },
});
