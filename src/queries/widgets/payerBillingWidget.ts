// The month's billing per payer from the per-(month, payer) counters: sessions and amount due at the contract rate in
// force on each session's date (as the monthly payer report totals them), flagged ones apart, and 12 months of amounts.
import Type from 'typebox';
import { DisplayCounts, DisplaySeries, defineWidget, widgetParams } from './widgetDefinition.js';
import {
  BILLING_CATEGORIES,
  PAYER_STAFF_PROJECTION,
  PAYERS_BILLING,
  PAYERS_CLIENTS,
} from '../../projections/widgets/payerStaffProjection.js';
import type { BillingMonthDoc, Totals } from '../../projections/widgets/payerBillingDocs.js';
import type { ClientDoc } from '../../projections/clientes/clientDoc.js';

const TotalsSchema = Type.Array(
  Type.Object({ currency: Type.String(), sessions: Type.Integer(), amount: Type.String() }, { additionalProperties: false }),
);
const PayerSchema = Type.Object(
  {
    clientId: Type.String(),
    clientName: Type.String(),
    sessions: Type.Integer({ description: 'Paid sessions of covered patients (the report rows)' }),
    totals: TotalsSchema,
    flaggedTotals: TotalsSchema,
  },
  { additionalProperties: false },
);
const BillingData = Type.Object(
  { month: Type.String(), payers: Type.Array(PayerSchema), counts: DisplayCounts, series: DisplaySeries },
  { additionalProperties: false },
);

/** The month `n` months before `month` (YYYY-MM). */
export const monthBefore = (month: string, n: number): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
};

const listed = (totals: Record<string, Totals>) =>
  Object.entries(totals)
    .map(([currency, t]) => ({ currency, sessions: t.sessions, amount: t.amount }))
    .sort((a, b) => a.currency.localeCompare(b.currency));

export const monthlyBillingWidget = defineWidget({
  id: 'monthly-billing',
  title: "The month's billing per payer",
  description:
    'Per payer: sessions billed and amount at the rate in force on each session date (totals), and those kept out of it (flaggedTotals: unsigned or lacking a required authorization); 12 months of amounts due',
  permissions: ['clientes:read'],
  params: widgetParams('month'),
  data: BillingData,
  projections: [PAYER_STAFF_PROJECTION],
  categories: BILLING_CATEGORIES,
  async read(params, ctx) {
    const tenantId = ctx.auth.tenantId;
    const month = params.month ?? ctx.today.slice(0, 7);
    const first = monthBefore(month, 11);
    const counters = ctx.services.projections.collection<BillingMonthDoc>(PAYER_STAFF_PROJECTION, PAYERS_BILLING);
    const clients = ctx.services.projections.collection<ClientDoc>(PAYER_STAFF_PROJECTION, PAYERS_CLIENTS);
    const year = await counters.find(tenantId, { month: { $gte: first, $lte: month } }, { sort: { month: 1 }, limit: 1200 });
    const names = new Map<string, string>();
    for (const id of new Set(year.items.map((d) => d.clientId))) names.set(id, (await clients.get(tenantId, id))?.legalName ?? id);
    const payers = year.items
      .filter((d) => d.month === month && d.sessions > 0)
      .map((d) => ({
        clientId: d.clientId,
        clientName: names.get(d.clientId) ?? d.clientId,
        sessions: d.sessions,
        totals: listed(d.due),
        flaggedTotals: listed(d.flagged),
      }))
      .sort((a, b) => a.clientName.localeCompare(b.clientName, 'es'));
    const months = Array.from({ length: 12 }, (_, i) => monthBefore(month, 11 - i));
    const lines = new Map<string, { label: string; amounts: Map<string, number> }>();
    for (const d of year.items)
      for (const [currency, t] of Object.entries(d.due)) {
        const key = `${d.clientId}|${currency}`;
        const line = lines.get(key) ?? { label: `${names.get(d.clientId)} (${currency})`, amounts: new Map() };
        line.amounts.set(d.month, Number(t.amount));
        lines.set(key, line);
      }
    return {
      month,
      payers,
      counts: payers.flatMap((p) =>
        p.totals.map((t) => ({ key: `${p.clientId}|${t.currency}`, label: `${p.clientName} (${t.currency})`, value: Number(t.amount) })),
      ),
      series: [...lines.entries()].map(([key, line]) => ({
        key,
        label: line.label,
        points: months.map((x) => ({ x, y: line.amounts.get(x) ?? 0 })),
      })),
    };
  },
});
