// The floor's widgets: patient census by status and isolation, today's board by shift, sessions awaiting signature or validation.
import Type from 'typebox';
import { defineWidget, DisplayCounts, DisplayItems, widgetParams, type WidgetReadContext, type WidgetSet } from './widgetDefinition.js';
import { ISOLATIONS, PATIENT_STATUSES } from '../../commands/pacientes/patientTypes.js';
import { PATIENT_CATEGORY } from '../../commands/pacientes/patientEvents.js';
import { SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { SHIFT_CATEGORY } from '../../commands/dialisis/schedule/shiftEvents.js';
import {
  AWAITING_ID,
  CENSUS_ID,
  FLOOR_BOARD,
  FLOOR_COUNTERS,
  FLOOR_PROJECTION,
  FLOOR_SESSIONS,
  floorProjection,
} from '../../projections/widgets/floorProjection.js';
import {
  BOARD_COLUMNS,
  emptyCounts,
  type Awaiting,
  type BoardDoc,
  type CountersDoc,
  type SessionMemberDoc,
} from '../../projections/widgets/floorDocs.js';
import { SCHEDULE_PROJECTION, SHIFTS } from '../../projections/dialisis/scheduleProjection.js';
import type { ShiftDoc } from '../../projections/dialisis/scheduleDocs.js';
import { PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';
import type { PatientDoc } from '../../projections/pacientes/patientDoc.js';

/** Shifts of one day listed at most (a unit has a handful per location). */
const BOARD_MAX_SHIFTS = 500;

const counter = Type.Integer({ minimum: 0 });
const countsOf = <K extends string>(keys: readonly K[], description: string) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, counter])) as Record<K, typeof counter>, {
    additionalProperties: false,
    description,
  });

const STATUS_LABELS: Record<(typeof PATIENT_STATUSES)[number], string> = {
  active: 'Active',
  transferred: 'Transferred',
  hospitalized: 'Hospitalized',
  transplanted: 'Transplanted',
  recovered: 'Recovered',
  discharged: 'Discharged',
  deceased: 'Deceased',
};
const COLUMN_LABELS: Record<(typeof BOARD_COLUMNS)[number], string> = {
  scheduled: 'Scheduled',
  arrived: 'Arrived',
  running: 'Running',
  ended: 'Ended',
  signed: 'Signed',
  validated: 'Validated',
  noShow: 'No-show',
  cancelled: 'Cancelled',
};

const counters = (ctx: WidgetReadContext) => ctx.services.projections.collection<CountersDoc>(FLOOR_PROJECTION, FLOOR_COUNTERS);

const CensusData = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Every patient of the company, whatever the status' }),
    byStatus: countsOf(PATIENT_STATUSES, 'Patients per status'),
    byIsolation: countsOf(ISOLATIONS, 'Active patients per isolation their serology implies (one patient may count in several)'),
    counts: DisplayCounts,
  },
  { additionalProperties: false },
);

const patientCensus = defineWidget({
  id: 'patient-census',
  title: 'Patient census',
  description: "The company's patients by status, and the active ones by isolation (HBV, HCV, HIV).",
  permissions: ['pacientes:read'],
  params: widgetParams(),
  data: CensusData,
  projections: [FLOOR_PROJECTION],
  categories: [PATIENT_CATEGORY],
  async read(_params, ctx) {
    const doc = await counters(ctx).get(ctx.auth.tenantId, CENSUS_ID);
    const byStatus = Object.fromEntries(PATIENT_STATUSES.map((status) => [status, doc?.byStatus?.[status] ?? 0])) as Record<
      (typeof PATIENT_STATUSES)[number],
      number
    >;
    const byIsolation = Object.fromEntries(ISOLATIONS.map((isolation) => [isolation, doc?.byIsolation?.[isolation] ?? 0])) as Record<
      (typeof ISOLATIONS)[number],
      number
    >;
    const counts = [
      ...PATIENT_STATUSES.map((status) => ({ key: status, label: STATUS_LABELS[status], value: byStatus[status] })),
      ...ISOLATIONS.map((isolation) => ({ key: isolation, label: `Isolation ${isolation}`, value: byIsolation[isolation] })),
    ];
    return { total: doc?.total ?? 0, byStatus, byIsolation, counts };
  },
});

const BoardCountsSchema = countsOf(BOARD_COLUMNS, 'Sessions per column');
const BoardData = Type.Object(
  {
    date: Type.String({ format: 'date' }),
    shifts: Type.Array(
      Type.Object(
        {
          shiftId: Type.String(),
          label: Type.Optional(Type.String({ description: "The shift's name" })),
          locationId: Type.String(),
          counts: BoardCountsSchema,
        },
        { additionalProperties: false },
      ),
    ),
    totals: BoardCountsSchema,
    counts: DisplayCounts,
  },
  { additionalProperties: false },
);

const todayBoard = defineWidget({
  id: 'today-board',
  title: "Today's board",
  description:
    "The day's sessions per shift and location: scheduled, arrived (checked in), running (in progress or paused), ended " +
    '(or interrupted), signed, validated, no-show; cancelled counted apart.',
  permissions: ['dialisis:read'],
  params: widgetParams('date', 'locationId'),
  data: BoardData,
  projections: [FLOOR_PROJECTION, SCHEDULE_PROJECTION],
  // The shifts' names are the board's labels.
  categories: [SESSION_CATEGORY, SHIFT_CATEGORY],
  async read(params, ctx) {
    const { tenantId } = ctx.auth;
    const date = params.date ?? ctx.today;
    const filter = params.locationId ? { date, locationId: params.locationId } : { date };
    const board = ctx.services.projections.collection<BoardDoc>(FLOOR_PROJECTION, FLOOR_BOARD);
    const { items } = await board.find(tenantId, filter, { sort: { date: 1, locationId: 1, shiftId: 1 }, limit: BOARD_MAX_SHIFTS });
    const shiftDocs = ctx.services.projections.collection<ShiftDoc>(SCHEDULE_PROJECTION, SHIFTS);
    const names = await Promise.all(items.map((doc) => shiftDocs.get(tenantId, doc.shiftId)));
    const totals = emptyCounts();
    const shifts = items.map((doc, n) => {
      for (const column of BOARD_COLUMNS) totals[column] += doc.counts[column];
      const label = names[n]?.name;
      return { shiftId: doc.shiftId, ...(label ? { label } : {}), locationId: doc.locationId, counts: { ...emptyCounts(), ...doc.counts } };
    });
    const counts = BOARD_COLUMNS.map((column) => ({ key: column, label: COLUMN_LABELS[column], value: totals[column] }));
    return { date, shifts, totals, counts };
  },
});

const AwaitingData = Type.Object(
  {
    awaitingSignature: Type.Integer({ minimum: 0, description: 'Sessions ended or interrupted, not signed by the nurse' }),
    awaitingValidation: Type.Integer({ minimum: 0, description: 'Sessions signed, not validated by the physician' }),
    counts: DisplayCounts,
    items: DisplayItems,
  },
  { additionalProperties: false },
);

const AWAITING_DETAIL: Record<Awaiting, string> = {
  signature: "Awaiting the nurse's signature",
  validation: "Awaiting the physician's validation",
};

/** The oldest sessions of one list: a range of the (awaiting, date) index, never a scan. */
const oldest = (ctx: WidgetReadContext, awaiting: Awaiting, limit: number) =>
  ctx.services.projections
    .collection<SessionMemberDoc>(FLOOR_PROJECTION, FLOOR_SESSIONS)
    .find(ctx.auth.tenantId, { awaiting }, { sort: { awaiting: 1, date: 1 }, limit })
    .then((page) => page.items);

/** "Family names, given names" of the patients, when the reader may read patients; null otherwise. */
async function patientNames(ctx: WidgetReadContext, ids: readonly string[]): Promise<Map<string, string> | null> {
  if (!ctx.permissions.has('pacientes:read')) return null;
  const patients = ctx.services.projections.collection<PatientDoc>(PACIENTES_PROJECTION, PATIENTS);
  const docs = await Promise.all([...new Set(ids)].map((id) => patients.get(ctx.auth.tenantId, id)));
  return new Map(docs.flatMap((doc) => (doc ? [[doc.id, `${doc.familyNames}, ${doc.givenNames}`] as const] : [])));
}

const sessionsAwaiting = defineWidget({
  id: 'sessions-awaiting',
  title: 'Sessions awaiting signature or validation',
  description: "How many sessions await the nurse's signature and the physician's validation, and the oldest of them.",
  permissions: ['dialisis:read', 'pacientes:notes'],
  params: widgetParams('limit'),
  data: AwaitingData,
  projections: [FLOOR_PROJECTION, PACIENTES_PROJECTION],
  categories: [SESSION_CATEGORY, PATIENT_CATEGORY],
  async read(params, ctx) {
    const limit = params.limit ?? 10;
    const [doc, signature, validation] = await Promise.all([
      counters(ctx).get(ctx.auth.tenantId, AWAITING_ID),
      oldest(ctx, 'signature', limit),
      oldest(ctx, 'validation', limit),
    ]);
    const rows = [...signature, ...validation].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id)).slice(0, limit);
    const names = await patientNames(
      ctx,
      rows.map((row) => row.patientId),
    );
    const items = rows.map((row) => ({
      id: row.id,
      label: names?.get(row.patientId) ?? 'Patient',
      patientId: row.patientId,
      detail: AWAITING_DETAIL[row.awaiting!],
      date: row.date,
      severity: row.date < ctx.today ? ('warning' as const) : ('info' as const),
    }));
    const awaitingSignature = doc?.signature ?? 0;
    const awaitingValidation = doc?.validation ?? 0;
    const counts = [
      { key: 'signature', label: 'Awaiting signature', value: awaitingSignature },
      { key: 'validation', label: 'Awaiting validation', value: awaitingValidation },
    ];
    return { awaitingSignature, awaitingValidation, counts, items };
  },
});

export const floorWidgets: WidgetSet = { widgets: [patientCensus, todayBoard, sessionsAwaiting], projections: [floorProjection] };
