// GET /sistema/auditoria (a company's trail: sistema:audit, which the auditor and administrator roles hold) and
// GET /sistema/auditoria/plataforma (the platform's own: sign-ins and accounts, platform administrators only).
import { Readable } from 'node:stream';
import Type from 'typebox';
import { route, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { pageOf, PageQueryFields, MinPositionField } from '../../commonSchemas.js';
import { DateTimeSchema, IdSchema, text } from '../shared/fieldSchemas.js';
import { badCursor400, unavailable503 } from '../shared/recordSupport.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { auditExport, auditPage, AUDIT_CSV_COLUMNS, preparedAuditPage, type AuditQuery } from '../../../queries/sistema/auditTrail.js';
import { PreparedJson } from '../../preparedJson.js';
import { sealPageCursor } from '../../pageCursor.js';
import { AUDIT_TRAIL } from '../../../projections/sistema/auditEntryDoc.js';
import { CSV_FORMULA_NOTE } from '../../../queries/csv.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { AuditEntrySchema } from './auditSchemas.js';

export const AUDIT_PERMISSION = 'sistema:audit';

const AuditQuerySchema = Type.Object(
  {
    patientId: Type.Optional({
      ...IdSchema,
      description: 'Entries of every record of this patient (the patient, sessions, notes, prescriptions, authorizations...)',
    }),
    recordType: Type.Optional(
      text(64, "Record type: a stream category (patient, nursingNote, dialysisSession, user, company...) or a read's record type"),
    ),
    recordId: Type.Optional(text(128, 'Record id (with recordType, or alone)')),
    actor: Type.Optional(text(128, 'User id or API client id')),
    action: Type.Optional(text(64, 'Event type (PatientCorrected, LoginFailed...), or read / write for reads and refused attempts')),
    outcome: Type.Optional(
      Type.Union(
        ['allowed', 'succeeded', 'denied', 'not-found', 'failed'].map((o) => Type.Literal(o)),
        { description: 'How it ended' },
      ),
    ),
    route: Type.Optional(text(200, 'Route template of reads and attempts, e.g. /pacientes/{id}')),
    from: Type.Optional({ ...DateTimeSchema, description: 'From this instant (inclusive)' }),
    to: Type.Optional({ ...DateTimeSchema, description: 'Up to this instant (inclusive)' }),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('ndjson')], {
        description: 'json (pages), csv or ndjson (streamed)',
      }),
    ),
    ...PageQueryFields,
    ...MinPositionField,
  },
  { additionalProperties: false },
);

const DESCRIPTION =
  'Newest first. One entry per read of a record (answered, or refused with 403 or 404: outcome denied / not-found), per attempt ' +
  'refused at a write route (action write), per change (the event type, with who, when and why from its metadata), and per ' +
  'sign-in and account event of the company (memberships, roles, its API clients and their secrets and tokens). Each says who ' +
  '(actor), when (at; repeated reads within a short window are one entry with count and lastAt), from where (ip, userAgent), what ' +
  '(action, route, recordType, recordId, patientIds), the outcome and the correlationId. JSON answers pages (limit, cursor); ' +
  '`format=csv` or `format=ndjson` streams every matching entry from the cursor on (limit does not apply: narrow with from/to), ' +
  `CSV columns ${AUDIT_CSV_COLUMNS.join(', ')}. ${CSV_FORMULA_NOTE}`;

type Input = { query: AuditQuery & { format?: 'json' | 'csv' | 'ndjson'; minPosition?: string } };

async function answer(input: Input, ctx: RequestContext, scope: string): Promise<HttpResult> {
  const { format = 'json', minPosition, ...query } = input.query;
  await awaitMinPosition(ctx, minPosition, [AUDIT_TRAIL.projection]);
  if (format === 'json') {
    // Kept per scope (one route each) and every parameter but the wait; the cursor sealed once for them (it binds the same).
    const key = JSON.stringify(
      Object.entries(input.query)
        .filter(([name]) => name !== 'minPosition')
        .sort(),
    );
    const body = await preparedAuditPage(ctx.services, scope, query, key, async () => {
      const page = await auditPage(ctx.services, scope, query);
      return PreparedJson.of({ ...page, nextCursor: sealPageCursor(ctx, page.nextCursor) });
    });
    return { status: 200, body };
  }
  const { limit: _limit, ...all } = query;
  const body = Readable.from(auditExport(ctx.services, scope, all, format));
  const contentType = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
  return { status: 200, body, contentType, auditPatientIds: query.patientId ? [query.patientId] : [] };
}

const common = {
  method: 'get',
  tag: 'Sistema',
  query: AuditQuerySchema,
  description: DESCRIPTION,
  responses: {
    200: { description: 'A page of the trail (text/csv or application/x-ndjson when asked)', schema: pageOf(AuditEntrySchema) },
    400: badCursor400,
    503: unavailable503,
  },
  // Who looked at the trail, and for which patient, is on the trail too.
  auditAccess: (input: Input) => ({
    recordType: 'auditTrail',
    recordId: null,
    patientIds: input.query.patientId ? [input.query.patientId] : [],
  }),
} as const;

export const auditRoutes: RouteDecl[] = [
  route({
    ...common,
    path: '/sistema/auditoria',
    auth: 'tenant',
    permission: AUDIT_PERMISSION,
    summary: "The company's audit trail: who read, changed or tried what, when and from where (JSON, CSV or NDJSON)",
    handle: (input, ctx) => answer(input, ctx, ctx.auth!.tenantId!),
  }),
  route({
    ...common,
    path: '/sistema/auditoria/plataforma',
    auth: 'platform',
    summary: "The platform's audit trail: sign-ins and their failures, second factors, accounts, companies, memberships, API clients",
    description: "The entries, filters and formats of GET /sistema/auditoria, over the platform's own events.",
    handle: (input, ctx) => answer(input, ctx, PLATFORM_DOCS),
  }),
];
