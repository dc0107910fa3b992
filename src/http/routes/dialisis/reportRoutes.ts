// Monthly adequacy per patient and the alerts of a date range (issue 10 item 8).
import { minPositionQueryProperty, problem } from '../../commonSchemas.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { handTypedRoute, type RouteDecl } from '../../routeTypes.js';
import { ProblemError } from '../../../problems.js';
import { SESSIONS_PROJECTION } from '../../../projections/dialisis/sessionsProjection.js';
import { adequacyOfMonth } from '../../../queries/dialisis/adequacy.js';
import { sessionAlerts } from '../../../queries/dialisis/alerts.js';
import { DateSchema, IdSchema, nullable } from '../shared/fieldSchemas.js';
import { tenantCtx, unavailable503, type MinPositionQuery, type NoInput } from '../shared/recordSupport.js';
import { READ, TAG } from './permissions.js';
import { obj } from './sessionSchemas.js';

const num = { type: ['number', 'null'] };
const PatientRef = { type: 'object', required: ['id'], properties: { id: IdSchema }, description: 'The patient: id, names, document' };
const MAX_ALERT_DAYS = 92;

const AdequacyRow = obj({
  patient: PatientRef,
  patientId: IdSchema,
  month: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$' },
  sessions: { type: 'integer' },
  sessionsWithBunPair: { type: 'integer' },
  measured: { type: 'boolean', description: 'A valid BUN pair in the month (KDOQI: measure at least monthly)' },
  measuredOn: nullable(DateSchema),
  spKtV: num,
  urrPercent: num,
  eKtV: num,
  stdKtV: { ...num, description: 'Weekly standard Kt/V (FHN/Leypoldt) of the measurement, with residual clearance when recorded' },
  nPcrGKgDay: { ...num, description: 'nPCR (g/kg/day) of the measurement (Depner & Daugirdas 1996)' },
  judgedBy: { enum: ['spKtV', 'stdKtV'], description: 'spKt/V thrice weekly (KDOQI 2006); stdKt/V on other schedules (KDOQI 2015)' },
  spKtVMean: num,
  urrPercentMean: num,
  belowMinimum: { type: ['boolean', 'null'] },
  belowTarget: { type: ['boolean', 'null'] },
  urrBelowMinimum: { type: ['boolean', 'null'] },
  ufRateMeanMlKgH: num,
  idwgMeanKg: num,
});
const AdequacyView = obj({
  month: { type: 'string' },
  targets: obj({
    ktvMinimum: { type: 'number' },
    ktvTarget: { type: 'number' },
    urrMinimumPercent: { type: 'number' },
    stdKtVMinimum: { type: 'number', description: 'KDOQI 2015: 2.1' },
    stdKtVTarget: { type: 'number', description: 'KDOQI 2015: 2.3' },
  }),
  patients: { type: 'array', items: AdequacyRow },
});
const AlertView = obj({
  kind: {
    enum: [
      'uf-rate-above-maximum',
      'ktv-below-minimum',
      'stdktv-below-minimum',
      'urr-below-minimum',
      'idwg-high',
      'consequence-refused',
      'missed-sessions',
    ],
  },
  patient: PatientRef,
  date: DateSchema,
  sessionId: nullable(IdSchema),
  field: { type: ['string', 'null'] },
  value: num,
  threshold: num,
  message: { type: 'string' },
  sessions: { type: 'array', items: IdSchema, description: 'The sessions behind it (the missed ones for missed-sessions)' },
  notifyPayer: { type: 'boolean', description: 'The payer is to be notified (three missed sessions in a row)' },
});

type AdequacyQuery = MinPositionQuery & { month: string; patientId?: string; locationId?: string };
type AlertQuery = MinPositionQuery & { from: string; to: string; locationId?: string; patientId?: string };

export const reportRoutes: RouteDecl[] = [
  handTypedRoute<NoInput, AdequacyQuery>({
    method: 'get',
    path: '/dialisis/adecuacion',
    legacyQuery: ['mes', 'pacienteId', 'sedeId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Monthly adequacy per patient: the measured spKt/V, URR and eKt/V against the company targets',
    query: {
      type: 'object',
      additionalProperties: false,
      required: ['month'],
      properties: {
        month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' },
        patientId: IdSchema,
        locationId: IdSchema,
        ...minPositionQueryProperty,
      },
    },
    responses: { 200: { description: 'One row per patient with sessions in the month', schema: AdequacyView }, 503: unavailable503 },
    auditAccess: (input) => ({ recordType: 'adequacyReport', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION]);
      const { month, patientId, locationId } = input.query;
      const body = await adequacyOfMonth(tenantCtx(ctx), {
        month,
        ...(patientId ? { patientId } : {}),
        ...(locationId ? { locationId } : {}),
      });
      return { status: 200, body };
    },
  }),
  handTypedRoute<NoInput, AlertQuery>({
    method: 'get',
    path: '/dialisis/alertas',
    legacyQuery: ['desde', 'hasta', 'sedeId', 'pacienteId'],
    tag: TAG,
    auth: 'tenant',
    permission: READ,
    summary: 'Alerts between two dates: UF rate, low Kt/V or URR, IDWG outliers, refused consequences, missed sessions',
    description: `At most ${MAX_ALERT_DAYS} days. Three missed sessions in a row raise one alert with notifyPayer (payer practice).`,
    query: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to'],
      properties: { from: DateSchema, to: DateSchema, locationId: IdSchema, patientId: IdSchema, ...minPositionQueryProperty },
    },
    responses: {
      200: { description: 'The alerts, by date', schema: obj({ items: { type: 'array', items: AlertView } }) },
      422: problem('to before from, or a range longer than allowed'),
      503: unavailable503,
    },
    auditAccess: (input) => ({ recordType: 'dialysisAlertList', recordId: input.query.patientId ?? null }),
    handle: async (input, ctx) => {
      await awaitMinPosition(ctx, input.query.minPosition, [SESSIONS_PROJECTION]);
      const { from, to, locationId, patientId } = input.query;
      const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
      if (!(days >= 0 && days <= MAX_ALERT_DAYS)) {
        const message = `must be on or after from and at most ${MAX_ALERT_DAYS} days later`;
        throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', `to: ${message}`, {}, [
          { pointer: '/query/to', message },
        ]);
      }
      const query = { from, to, ...(locationId ? { locationId } : {}), ...(patientId ? { patientId } : {}) };
      return { status: 200, body: { items: await sessionAlerts(tenantCtx(ctx), query) } };
    },
  }),
];
