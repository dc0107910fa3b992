// GET /clientes/{id}/reporte-mensual: the monthly payer report (issue 11 item 7), as JSON or CSV.
import { minPositionQueryProperty, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { handTypedRoute, type RouteDecl } from '../../routeTypes.js';
import { payerReport, payerReportCsv } from '../../../queries/clientes/payerReport.js';
import { CSV_FORMULA_NOTE } from '../../../queries/csv.js';
import { DateSchema, IdSchema } from '../shared/fieldSchemas.js';
import { tenantCtx, unavailable503, type MinPositionQuery } from '../shared/recordSupport.js';
import { obj, READ, TAG } from './schemas.js';

const num = { type: ['number', 'null'] };
const str = { type: ['string', 'null'] };

const Row = obj({
  patientId: IdSchema,
  patientName: { type: 'string' },
  document: { type: 'string' },
  sessionId: IdSchema,
  date: DateSchema,
  status: { type: 'string' },
  dryWeightKg: num,
  preWeightKg: { ...num, description: 'Net pre-dialysis weight' },
  postWeightKg: { ...num, description: 'Net post-dialysis weight' },
  treatmentHours: { ...num, description: 'Effective treatment time in decimal hours' },
  ufLitres: { ...num, description: 'Ultrafiltration achieved (scale), else the machine total, in litres' },
  authorizationCode: str,
  contractNumber: str,
  amount: { ...str, description: 'Rate of the contract in force on the session date (decimal string)' },
  currency: str,
  flags: {
    type: 'array',
    items: { enum: ['no-authorization', 'unsigned'] },
    description: 'Why the row is not in the amount due: no authorization where the contract requires one; not signed',
  },
});
const Totals = { type: 'array', items: obj({ currency: { type: 'string' }, sessions: { type: 'integer' }, amount: { type: 'string' } }) };
const ReportView = obj({
  clientId: IdSchema,
  clientName: { type: 'string' },
  month: { type: 'string' },
  sessions: { type: 'integer' },
  rows: { type: 'array', items: Row },
  totals: { ...Totals, description: 'The amount due: rows without flags' },
  flaggedTotals: { ...Totals, description: 'Rows flagged, kept out of the amount due until resolved' },
});

type ReportQuery = MinPositionQuery & { month: string; format?: 'json' | 'csv' };

export const reportRoute: RouteDecl = handTypedRoute<{ id: string }, ReportQuery>({
  method: 'get',
  path: '/clientes/{id}/reporte-mensual',
  legacyQuery: ['mes', 'formato'],
  tag: TAG,
  auth: 'tenant',
  permission: READ,
  summary: "The month's sessions of the patients this payer covers, with the amount due at the contract rate",
  description:
    'Per patient and session: date, dry weight, net pre and post weight, treatment hours, UF litres (the monthly data public ' +
    'payers ask for), the authorization consumed, and the rate in force that day; totals per currency. A session is billed ' +
    'when its treatment ended, or it was interrupted after some treatment (the rule authorization units follow); a row ' +
    'without the authorization its contract requires, or not yet signed, is flagged and totalled apart (flaggedTotals), ' +
    'out of the amount due. `format=csv` or ' +
    `\`Accept: text/csv\` answers text/csv. ${CSV_FORMULA_NOTE}`,
  params: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } },
  query: {
    type: 'object',
    additionalProperties: false,
    required: ['month'],
    properties: {
      month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' },
      format: { enum: ['json', 'csv'] },
      ...minPositionQueryProperty,
    },
  },
  responses: {
    200: { description: 'The report (text/csv when asked)', schema: ReportView },
    404: problem("No such client in the selected company (another company's client is reported the same way)"),
    503: unavailable503,
  },
  auditAccess: (input) => ({ recordType: 'payerMonthlyReport', recordId: input.params.id }),
  handle: async (input, ctx) => {
    await awaitMinPosition(ctx, input.query.minPosition);
    const report = await payerReport(tenantCtx(ctx), input.params.id, input.query.month);
    const { format } = input.query;
    const csv = format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(input.headers.accept ?? ''));
    const auditPatientIds = report.rows.map((r) => r.patientId); // the CSV names them by name and document only
    if (csv) return { status: 200, body: await payerReportCsv(report.rows), contentType: 'text/csv; charset=utf-8', auditPatientIds };
    return { status: 200, body: report };
  },
});
