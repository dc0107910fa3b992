// GET /clientes/{id}/reporte-mensual: the monthly payer report (issue 11 item 7), as JSON or CSV.
import Type from 'typebox';
import { MinPositionField } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { payerReport, payerReportCsv } from '../../../queries/clientes/payerReport.js';
import { CSV_FORMULA_NOTE } from '../../../queries/csv.js';
import { closed, DateSchema, IdParams, IdSchema, NumberOrNull, StringOrNull } from '../shared/fieldSchemas.js';
import { csvReportResponses, tenantCtx } from '../shared/recordSupport.js';
import { READ, TAG } from './schemas.js';
import { clients } from './support.js';

const Row = closed({
  patientId: IdSchema,
  patientName: Type.String(),
  document: Type.String(),
  sessionId: IdSchema,
  date: DateSchema,
  status: Type.String(),
  dryWeightKg: NumberOrNull,
  preWeightKg: { ...NumberOrNull, description: 'Net pre-dialysis weight' },
  postWeightKg: { ...NumberOrNull, description: 'Net post-dialysis weight' },
  treatmentHours: { ...NumberOrNull, description: 'Effective treatment time in decimal hours' },
  ufLitres: { ...NumberOrNull, description: 'Ultrafiltration achieved (scale), else the machine total, in litres' },
  authorizationCode: StringOrNull,
  contractNumber: StringOrNull,
  amount: { ...StringOrNull, description: 'Rate of the contract in force on the session date (decimal string)' },
  currency: StringOrNull,
  flags: Type.Array(Type.Enum(['no-authorization', 'unsigned']), {
    description: 'Why the row is not in the amount due: no authorization where the contract requires one; not signed',
  }),
});
const totals = (description: string) =>
  Type.Array(closed({ currency: Type.String(), sessions: Type.Integer(), amount: Type.String() }), { description });
const ReportView = closed({
  clientId: IdSchema,
  clientName: Type.String(),
  month: Type.String(),
  sessions: Type.Integer(),
  rows: Type.Array(Row),
  totals: totals('The amount due: rows without flags'),
  flaggedTotals: totals('Rows flagged, kept out of the amount due until resolved'),
});

const ReportQuery = Type.Object(
  {
    month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
    format: Type.Optional(Type.Enum(['json', 'csv'])),
    ...MinPositionField,
  },
  { additionalProperties: false },
);

export const reportRoute: RouteDecl = route({
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
  params: IdParams,
  query: ReportQuery,
  responses: csvReportResponses('The report', ReportView, clients.notFound404),
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
