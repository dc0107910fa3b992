// The clinical quality widgets: open alerts by kind, the month's adequacy, IDWG and UF-rate outliers; each read from the
// counters and items the widgets-adequacy projection keeps (a bounded number of documents whatever the company's size).
import { addDays } from '../../commands/shared/calendarDays.js';
import Type from 'typebox';
import type { TenantScope } from '../tenantScope.js';
import { DisplayCounts, DisplayItems, DisplaySeries, defineWidget, widgetParams, type WidgetSet } from './widgetDefinition.js';
import { SESSION_CATEGORY } from '../../commands/dialisis/session/sessionEvents.js';
import { SESSION_CONSEQUENCES_CATEGORY } from '../../commands/dialisis/consequences/consequenceEvents.js';
import {
  ADEQUACY_DAYS,
  ADEQUACY_ITEMS,
  ADEQUACY_MONTHS,
  ADEQUACY_PROJECTION,
  adequacyProjection,
  type DayDoc,
  type ItemDoc,
  type MonthDoc,
} from '../../projections/widgets/adequacyProjection.js';
import { ALERT_KINDS, FLUID_KINDS, KTV_BUCKETS, URR_BUCKETS } from '../../projections/widgets/adequacyRules.js';
import { patientBriefs } from '../dialisis/sessions.js';
import { PACIENTES_PROJECTION, PATIENTS } from '../../projections/pacientes/pacientesProjection.js';

const PERMISSIONS = ['dialisis:read', 'pacientes:notes'] as const;
const CATEGORIES = [SESSION_CATEGORY, SESSION_CONSEQUENCES_CATEGORY] as const;
const DEFAULT_DAYS = 7;
const DEFAULT_LIMIT = 10;
const TREND_MONTHS = 12;

const KIND_LABELS: Record<string, string> = {
  'uf-rate-above-maximum': 'UF rate above maximum',
  'ktv-below-minimum': 'spKt/V below minimum',
  'stdktv-below-minimum': 'stdKt/V below minimum',
  'urr-below-minimum': 'URR below minimum',
  'idwg-high': 'IDWG above the alert share of dry weight',
  'consequence-refused': 'Consequence refused by the equipment',
  'missed-sessions': 'Missed sessions in a row',
};

const Outlier = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    patientId: Type.String(),
    sessionId: Type.String(),
    date: Type.String({ format: 'date' }),
    value: Type.Union([Type.Number(), Type.Null()]),
    threshold: Type.Union([Type.Number(), Type.Null()]),
  },
  { additionalProperties: false },
);
const Range = { from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) };

/** What the three widgets read: the projection's counters and items, and the patients they name. */
const SOURCES = [
  ...[ADEQUACY_DAYS, ADEQUACY_MONTHS, ADEQUACY_ITEMS].map((collection) => ({ projection: ADEQUACY_PROJECTION, collection })),
  { projection: PACIENTES_PROJECTION, collection: PATIENTS },
];

const collection = <T extends DayDoc | MonthDoc | ItemDoc>(scope: TenantScope, name: string) =>
  scope.services.projections.collection<T>(ADEQUACY_PROJECTION, name);

/** The last `days` days up to today: from, to and their day counters (at most one document a day). */
async function dayCounts(scope: TenantScope, today: string, days: number) {
  const from = addDays(today, -(days - 1));
  const page = await collection<DayDoc>(scope, ADEQUACY_DAYS).find(
    scope.auth.tenantId,
    { date: { $gte: from, $lte: today } },
    { sort: { date: 1 }, limit: days },
  );
  return { from, to: today, docs: page.items };
}

const sumOf = (docs: readonly DayDoc[], kind: string): number => docs.reduce((sum, doc) => sum + (doc.counts[kind] ?? 0), 0);

/** Items as rows: the patient's name when the patient is readable, why it is listed, the day. */
async function rows(scope: TenantScope, items: readonly ItemDoc[]) {
  const names = await patientBriefs(
    scope,
    items.map((i) => i.patientId),
  );
  return items.map((item) => {
    const patient = names.get(item.patientId);
    const label = patient ? `${patient.familyNames}, ${patient.givenNames}` : item.patientId;
    const severity = item.kind === 'missed-sessions' ? ('critical' as const) : ('warning' as const);
    return { id: item.id, label, detail: item.detail, date: item.date, severity };
  });
}

const outlierOf = ({ id, kind, patientId, sessionId, date, value, threshold }: ItemDoc) => ({
  id,
  kind,
  patientId,
  sessionId,
  date,
  value,
  threshold,
});

const openAlerts = defineWidget({
  id: 'open-alerts',
  title: 'Open alerts',
  description:
    'Alerts of the signed sessions by kind over the last days (UF rate, Kt/V, URR, IDWG, refused consequences, missed sessions), and the latest.',
  permissions: PERMISSIONS,
  params: widgetParams('days', 'limit'),
  data: Type.Object(
    { ...Range, total: Type.Integer(), counts: DisplayCounts, series: DisplaySeries, items: DisplayItems, alerts: Type.Array(Outlier) },
    { additionalProperties: false },
  ),
  projections: [ADEQUACY_PROJECTION],
  sources: SOURCES,
  categories: CATEGORIES,
  async read(params, ctx) {
    const { from, to, docs } = await dayCounts(ctx, ctx.today, params.days ?? DEFAULT_DAYS);
    const counts = ALERT_KINDS.map((key) => ({ key, label: KIND_LABELS[key]!, value: sumOf(docs, key) }));
    const points = docs.map((doc) => ({ x: doc.date, y: Object.values(doc.counts).reduce((sum, n) => sum + n, 0) }));
    const page = await collection<ItemDoc>(ctx, ADEQUACY_ITEMS).find(
      ctx.auth.tenantId,
      { date: { $gte: from, $lte: to } },
      { sort: { date: -1 }, limit: params.limit ?? DEFAULT_LIMIT },
    );
    return {
      from,
      to,
      total: counts.reduce((sum, c) => sum + c.value, 0),
      counts,
      series: [{ key: 'alerts', label: 'Alerts a day', points }],
      items: await rows(ctx, page.items),
      alerts: page.items.map(outlierOf),
    };
  },
});

const share = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);
const mean = (sum: number, count: number, decimals: number): number | null =>
  count === 0 ? null : Math.round((sum / count) * 10 ** decimals) / 10 ** decimals;

const monthBefore = (month: string, back: number): string => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(year, m - 1 - back, 1));
  return d.toISOString().slice(0, 7);
};

const monthlyAdequacy = defineWidget({
  id: 'monthly-adequacy',
  title: "The month's adequacy",
  description:
    "Signed sessions with a measured spKt/V: the share at target (no spKt/V, stdKt/V or URR below the company's minimum at signing), distributions of spKt/V and URR, 12-month trend.",
  permissions: PERMISSIONS,
  params: widgetParams('month', 'locationId'),
  data: Type.Object(
    {
      month: Type.String(),
      locationId: Type.Union([Type.String(), Type.Null()]),
      measured: Type.Integer(),
      atTarget: Type.Integer(),
      shareAtTarget: Type.Union([Type.Number(), Type.Null()]),
      spKtVMean: Type.Union([Type.Number(), Type.Null()]),
      urrPercentMean: Type.Union([Type.Number(), Type.Null()]),
      counts: DisplayCounts,
      spKtVDistribution: DisplayCounts,
      urrDistribution: DisplayCounts,
      series: DisplaySeries,
      items: DisplayItems,
    },
    { additionalProperties: false },
  ),
  projections: [ADEQUACY_PROJECTION],
  sources: SOURCES,
  categories: CATEGORIES,
  async read(params, ctx) {
    const month = params.month ?? ctx.today.slice(0, 7);
    const locationId = params.locationId ?? '';
    const first = monthBefore(month, TREND_MONTHS - 1);
    const page = await collection<MonthDoc>(ctx, ADEQUACY_MONTHS).find(
      ctx.auth.tenantId,
      { locationId, month: { $gte: first, $lte: month } },
      { sort: { month: 1 }, limit: TREND_MONTHS },
    );
    const byMonth = new Map(page.items.map((doc) => [doc.month, doc]));
    const doc = byMonth.get(month);
    const months = Array.from({ length: TREND_MONTHS }, (_, i) => monthBefore(month, TREND_MONTHS - 1 - i));
    const trend = (f: (d: MonthDoc) => number | null) => months.map((x) => ({ x, y: byMonth.has(x) ? f(byMonth.get(x)!) : null }));
    const measured = doc?.measured ?? 0;
    const atTarget = doc?.atTarget ?? 0;
    const distribution = (b: typeof KTV_BUCKETS, values: readonly number[] | undefined) =>
      b.labels.map((label, i) => ({ key: `${b.key}-${i}`, label, value: values?.[i] ?? 0 }));
    return {
      month,
      locationId: params.locationId ?? null,
      measured,
      atTarget,
      shareAtTarget: share(atTarget, measured),
      spKtVMean: mean(doc?.ktvSum ?? 0, measured, 2),
      urrPercentMean: mean(doc?.urrSum ?? 0, doc?.urrCount ?? 0, 1),
      counts: [
        { key: 'at-target', label: 'At target', value: atTarget },
        { key: 'below-target', label: 'Below target', value: measured - atTarget },
      ],
      spKtVDistribution: distribution(KTV_BUCKETS, doc?.ktvBuckets),
      urrDistribution: distribution(URR_BUCKETS, doc?.urrBuckets),
      series: [
        { key: 'share-at-target', label: 'Share at target (%)', points: trend((d) => share(d.atTarget, d.measured)) },
        { key: 'spktv-mean', label: 'Mean spKt/V', points: trend((d) => mean(d.ktvSum, d.measured, 2)) },
      ],
      items: [],
    };
  },
});

/** A range with at most this many outliers of a kind is sorted by severity whole; a larger one is read worst first. */
const RANGE_SORT_MAX = 200;
const SEVERITY_PAGE = 250;

/**
 * The worst `limit` outliers of a kind in the range: a small range (its count known from the day counters) sorted whole;
 * a large one read through the (kind, severity) index worst first, page by page, until `limit` fall in the range.
 */
async function worstOf(scope: TenantScope, kind: string, from: string, to: string, inRange: number, limit: number): Promise<ItemDoc[]> {
  const items = collection<ItemDoc>(scope, ADEQUACY_ITEMS);
  const tenantId = scope.auth.tenantId;
  if (inRange <= RANGE_SORT_MAX)
    return (await items.find(tenantId, { kind, date: { $gte: from, $lte: to } }, { sort: { severity: -1 }, limit })).items;
  const found: ItemDoc[] = [];
  let after: string | null = null;
  do {
    const page = await items.find(tenantId, { kind }, { sort: { severity: -1 }, limit: SEVERITY_PAGE, after });
    for (const item of page.items) if (item.date >= from && item.date <= to && found.length < limit) found.push(item);
    after = page.nextCursor;
  } while (after && found.length < limit);
  return found;
}

const fluidOutliers = defineWidget({
  id: 'fluid-outliers',
  title: 'IDWG and UF-rate outliers',
  description:
    "Signed sessions over the last days with an IDWG above the alert share of the dry weight or a UF rate above the company's maximum: counts and the worst.",
  permissions: PERMISSIONS,
  params: widgetParams('days', 'limit'),
  data: Type.Object(
    { ...Range, counts: DisplayCounts, items: DisplayItems, outliers: Type.Array(Outlier) },
    { additionalProperties: false },
  ),
  projections: [ADEQUACY_PROJECTION],
  sources: SOURCES,
  categories: [SESSION_CATEGORY],
  async read(params, ctx) {
    const { from, to, docs } = await dayCounts(ctx, ctx.today, params.days ?? DEFAULT_DAYS);
    const counts = FLUID_KINDS.map((key) => ({ key, label: KIND_LABELS[key]!, value: sumOf(docs, key) }));
    const limit = params.limit ?? DEFAULT_LIMIT;
    const worst = await Promise.all(FLUID_KINDS.map((kind) => worstOf(ctx, kind, from, to, sumOf(docs, kind), limit)));
    const items = worst
      .flat()
      .sort((a, b) => b.severity - a.severity || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    return { from, to, counts, items: await rows(ctx, items), outliers: items.map(outlierOf) };
  },
});

export const adequacyWidgets: WidgetSet = {
  widgets: [openAlerts, monthlyAdequacy, fluidOutliers],
  projections: [adequacyProjection],
};
