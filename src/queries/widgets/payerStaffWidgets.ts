// The payer and staff widgets: authorizations running out, the month's billing per payer, staff licences expiring.
import { addDays } from '../../commands/shared/calendarDays.js';
import Type from 'typebox';
import {
  DisplayCounts,
  DisplayItems,
  SEVERITY_RANK,
  defineWidget,
  widgetParams,
  type DisplayItem as Item,
  type WidgetSet,
  type WidgetReadContext,
} from './widgetDefinition.js';
import {
  AUTHORIZATION_CATEGORIES,
  PAYER_STAFF_PROJECTION,
  PAYERS_AUTHORIZATION_DAYS,
  PAYERS_AUTHORIZATIONS,
  PAYERS_LICENCES,
  STAFF_CATEGORIES,
  payerStaffProjection,
} from '../../projections/widgets/payerStaffProjection.js';
import {
  LOW_SHARE,
  LOW_UNITS,
  type AuthorizationDayDoc,
  type AuthorizationWatchDoc,
  type LicenceWatchDoc,
} from '../../projections/widgets/payerWatchDocs.js';
import { monthlyBillingWidget } from './payerBillingWidget.js';

const CLIENTES_READ = 'clientes:read';
const STAFF_READ = 'colaboradores:read';
const DEFAULT_LIMIT = 20;
/** Last days counted at most: the past `days` (365 at most) and every day an authorization still runs to (years). */
const MAX_DAYS = 3000;
/** Before any real date: the low end of a date index range that skips nulls. */
const EVER = '0000-01-01';

const collectionOf = <T extends { tenantId: string; id: string }>(ctx: WidgetReadContext, name: string) =>
  ctx.services.projections.collection<T & { _position: number }>(PAYER_STAFF_PROJECTION, name);

const WatchData = Type.Object({ counts: DisplayCounts, items: DisplayItems }, { additionalProperties: false });
const urgentFirst = (a: Item, b: Item) =>
  SEVERITY_RANK[a.severity ?? 'info'] - SEVERITY_RANK[b.severity ?? 'info'] ||
  (a.date ?? '').localeCompare(b.date ?? '') ||
  a.id.localeCompare(b.id);

const authorizationItem = (doc: AuthorizationWatchDoc, today: string): Item => {
  const expired = doc.validTo < today;
  const severity = expired || doc.remaining === 0 ? 'critical' : doc.low ? 'warning' : 'info';
  const why = expired ? `expired on ${doc.validTo}` : doc.remaining === 0 ? 'exhausted' : `ends on ${doc.validTo}`;
  return {
    id: doc.id,
    label: `Authorization ${doc.code}`,
    detail: `${doc.remaining} of ${doc.authorized} sessions left, ${why}`,
    date: doc.validTo,
    severity,
  };
};

const authorizationsRunningOut = defineWidget({
  id: 'authorizations-running-out',
  title: 'Authorizations running out',
  description: `Payer authorizations nearly exhausted (<= ${LOW_UNITS} units or ${LOW_SHARE * 100} % left), ending within \`days\` (default 14) or expired within the last \`days\``,
  permissions: [CLIENTES_READ],
  params: widgetParams('days', 'limit'),
  data: WatchData,
  projections: [PAYER_STAFF_PROJECTION],
  categories: AUTHORIZATION_CATEGORIES,
  async read(params, ctx) {
    const { today } = ctx;
    const tenantId = ctx.auth.tenantId;
    const days = params.days ?? 14;
    const limit = params.limit ?? DEFAULT_LIMIT;
    const docs = collectionOf<AuthorizationWatchDoc>(ctx, PAYERS_AUTHORIZATIONS);
    const low = { low: 1, validTo: { $gte: today } };
    const horizon = addDays(today, days);
    const since = addDays(today, -days);
    const ending = { validTo: { $gte: today, $lte: horizon } };
    const expired = { validTo: { $gte: since, $lt: today } };
    // Counts from the per-day counters: one document per last day (the past `days` and the days still to come).
    const dayDocs = collectionOf<AuthorizationDayDoc>(ctx, PAYERS_AUTHORIZATION_DAYS);
    const [dayPage, lowDocs, endingDocs, expiredDocs] = await Promise.all([
      dayDocs.find(tenantId, { day: { $gte: since } }, { sort: { day: 1 }, limit: MAX_DAYS }),
      docs.find(tenantId, low, { sort: { low: 1, validTo: 1 }, limit }),
      docs.find(tenantId, ending, { sort: { validTo: 1 }, limit }),
      docs.find(tenantId, expired, { sort: { validTo: -1 }, limit }),
    ]);
    let [lowCount, exhaustedCount, endingCount, expiredCount] = [0, 0, 0, 0];
    for (const d of dayPage.items) {
      if (d.day < today) expiredCount += d.count;
      else {
        lowCount += d.low;
        exhaustedCount += d.exhausted;
        if (d.day <= horizon) endingCount += d.count;
      }
    }
    const byId = new Map<string, Item>();
    for (const doc of [...lowDocs.items, ...endingDocs.items, ...expiredDocs.items]) byId.set(doc.id, authorizationItem(doc, today));
    return {
      counts: [
        { key: 'low', label: 'Nearly exhausted', value: lowCount - exhaustedCount },
        { key: 'exhausted', label: 'Exhausted', value: exhaustedCount },
        { key: 'ending', label: `Ending within ${days} days`, value: endingCount },
        { key: 'expired', label: `Expired in the last ${days} days`, value: expiredCount },
      ],
      items: [...byId.values()].sort(urgentFirst).slice(0, limit),
    };
  },
});

const licencesExpiring = defineWidget({
  id: 'licences-expiring',
  title: 'Staff licences expiring',
  description: 'Active staff whose professional licence expires within `days` (default 60) or has expired',
  permissions: [STAFF_READ],
  params: widgetParams('days', 'limit'),
  data: WatchData,
  projections: [PAYER_STAFF_PROJECTION],
  categories: STAFF_CATEGORIES,
  async read(params, ctx) {
    const { today } = ctx;
    const tenantId = ctx.auth.tenantId;
    const days = params.days ?? 60;
    const horizon = addDays(today, days);
    const docs = collectionOf<LicenceWatchDoc>(ctx, PAYERS_LICENCES);
    const [expired, expiring, listed] = await Promise.all([
      docs.count(tenantId, { watchOn: { $gte: EVER, $lt: today } }),
      docs.count(tenantId, { watchOn: { $gte: today, $lte: horizon } }),
      docs.find(tenantId, { watchOn: { $gte: EVER, $lte: horizon } }, { sort: { watchOn: 1 }, limit: params.limit ?? DEFAULT_LIMIT }),
    ]);
    return {
      counts: [
        { key: 'expired', label: 'Expired', value: expired },
        { key: 'expiring', label: `Expiring within ${days} days`, value: expiring },
      ],
      items: listed.items.map((doc) => ({
        id: doc.id,
        label: `${doc.familyNames}, ${doc.givenNames}`,
        detail: `${doc.body ?? ''} ${doc.number ?? ''} ${doc.watchOn! < today ? 'expired' : 'expires'} on ${doc.watchOn}`.trim(),
        date: doc.watchOn!,
        severity: doc.watchOn! < today ? ('critical' as const) : ('warning' as const),
      })),
    };
  },
});

export const payerStaffWidgets: WidgetSet = {
  widgets: [authorizationsRunningOut, monthlyBillingWidget, licencesExpiring],
  projections: [payerStaffProjection],
};
