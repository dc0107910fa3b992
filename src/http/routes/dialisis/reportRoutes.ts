// Monthly adequacy per patient and the alerts of a date range (issue 10 item 8).
import Type from 'typebox';
import { MinPositionField, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import type { RouteDecl } from '../../routeTypes.js';
import { ProblemError } from '../../../problems.js';
import { adequacyOfMonth } from '../../../queries/dialisis/adequacy.js';
import { sessionAlerts } from '../../../queries/dialisis/alerts.js';
import { preparedSessionReport, SESSION_REPORT_READS } from '../../../queries/dialisis/preparedReports.js';
import { PreparedJson } from '../../preparedJson.js';
import { DateSchema, IdSchema, nullable } from '../shared/fieldSchemas.js';
import { tenantCtx, unavailable503 } from '../shared/recordSupport.js';
import { READ, TAG } from './permissions.js';
import { described, obj } from './schemaParts.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const reports = groupRoutes(TAG);

const num = nullable(Type.Number());
const bool = nullable(Type.Boolean());
const PatientRef = Type.Object({ id: IdSchema }, { description: 'The patient: id, names, document' });
const MAX_ALERT_DAYS = 92;

const AdequacyRow = obj({
  patient: PatientRef,
  patientId: IdSchema,
  month: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
  sessions: Type.Integer(),
  sessionsWithBunPair: Type.Integer(),
  measured: Type.Boolean({ description: 'A valid BUN pair in the month (KDOQI: measure at least monthly)' }),
  measuredOn: nullable(DateSchema),
  spKtV: num,
  urrPercent: num,
  eKtV: num,
  stdKtV: described(num, 'Weekly standard Kt/V (FHN/Leypoldt) of the measurement, with residual clearance when recorded'),
  nPcrGKgDay: described(num, 'nPCR (g/kg/day) of the measurement (Depner & Daugirdas 1996)'),
  judgedBy: Type.Enum(['spKtV', 'stdKtV'], {
    description: 'spKt/V thrice weekly (KDOQI 2006); stdKt/V on other schedules (KDOQI 2015)',
  }),
  spKtVMean: num,
  urrPercentMean: num,
  belowMinimum: bool,
  belowTarget: bool,
  urrBelowMinimum: bool,
  ufRateMeanMlKgH: num,
  idwgMeanKg: num,
});
const AdequacyView = obj({
  month: Type.String(),
  targets: obj({
    ktvMinimum: Type.Number(),
    ktvTarget: Type.Number(),
    urrMinimumPercent: Type.Number(),
    stdKtVMinimum: Type.Number({ description: 'KDOQI 2015: 2.1' }),
    stdKtVTarget: Type.Number({ description: 'KDOQI 2015: 2.3' }),
  }),
  patients: Type.Array(AdequacyRow),
});
const AlertView = obj({
  kind: Type.Enum([
    'uf-rate-above-maximum',
    'ktv-below-minimum',
    'stdktv-below-minimum',
    'urr-below-minimum',
    'idwg-high',
    'consequence-refused',
    'missed-sessions',
  ]),
  patient: PatientRef,
  date: DateSchema,
  sessionId: nullable(IdSchema),
  field: nullable(Type.String()),
  value: num,
  threshold: num,
  message: Type.String(),
  sessions: Type.Array(IdSchema, { description: 'The sessions behind it (the missed ones for missed-sessions)' }),
  notifyPayer: Type.Boolean({ description: 'The payer is to be notified (three missed sessions in a row)' }),
});

const AdequacyQuery = Type.Object(
  {
    month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' }),
    patientId: Type.Optional(IdSchema),
    locationId: Type.Optional(IdSchema),
    ...MinPositionField,
  },
  { additionalProperties: false },
);
const AlertQuery = Type.Object(
  {
    from: DateSchema,
    to: DateSchema,
    locationId: Type.Optional(IdSchema),
    patientId: Type.Optional(IdSchema),
    ...MinPositionField,
  },
  { additionalProperties: false },
);

export const reportRoutes: RouteDecl[] = [
  reports.get('/dialisis/adecuacion', READ, {
    legacyQuery: ['mes', 'pacienteId', 'sedeId'],
    summary: 'Monthly adequacy per patient: the measured spKt/V, URR and eKt/V against the company targets',
    query: AdequacyQuery,
    responses: { 200: { description: 'One row per patient with sessions in the month', schema: AdequacyView }, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'adequacyReport', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, SESSION_REPORT_READS);
      const { month, patientId, locationId } = input.query;
      const scope = tenantCtx(ctx);
      const query = [month, patientId ?? null, locationId ?? null];
      const body = await preparedSessionReport(scope, 'adequacy', query, async () =>
        PreparedJson.of(await adequacyOfMonth(scope, { month, patientId, locationId })),
      );
      return { status: 200, body };
    },
  }),
  reports.get('/dialisis/alertas', READ, {
    legacyQuery: ['desde', 'hasta', 'sedeId', 'pacienteId'],
    summary: 'Alerts between two dates: UF rate, low Kt/V or URR, IDWG outliers, refused consequences, missed sessions',
    description: `At most ${MAX_ALERT_DAYS} days. Three missed sessions in a row raise one alert with notifyPayer (payer practice).`,
    query: AlertQuery,
    responses: {
      200: { description: 'The alerts, by date', schema: obj({ items: Type.Array(AlertView) }) },
      422: problem('to before from, or a range longer than allowed'),
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'dialysisAlertList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, SESSION_REPORT_READS);
      const { from, to, locationId, patientId } = input.query;
      const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
      if (!(days >= 0 && days <= MAX_ALERT_DAYS)) {
        const message = `must be on or after from and at most ${MAX_ALERT_DAYS} days later`;
        throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', `to: ${message}`, {}, [
          { pointer: '/query/to', message },
        ]);
      }
      const query = { from, to, ...(locationId ? { locationId } : {}), ...(patientId ? { patientId } : {}) };
      const scope = tenantCtx(ctx);
      const key = [from, to, locationId ?? null, patientId ?? null];
      const body = await preparedSessionReport(scope, 'alerts', key, async () =>
        PreparedJson.of({ items: await sessionAlerts(scope, query) }),
      );
      return { status: 200, body };
    },
  }),
];
