// Queries over balances and the kardex: balance by warehouse and lot, FEFO order, lots expiring within N days, and the
// ledger of a product between two dates with its running balances (JSON or CSV).
import { csvTextInTurns } from '../csvChunks.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter } from '../../stores/readStore.js';
import { kardexView, type BalanceDoc, type KardexDoc } from '../../projections/productos/productDocs.js';
import { fefoLots, isExpired } from '../../commands/productos/shared/stockState.js';
import { companyDay } from '../empresas/companyCalendar.js';
import { balances, kardex } from './products.js';

/** Rows read at most for one answer (a company's balances of a product, its lots expiring, one kardex export). */
const SCAN_MAX = 20_000;
const PAGE = 200;

async function every<T extends BalanceDoc | KardexDoc>(
  scope: TenantScope,
  read: (after: string | null) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const all: T[] = [];
  let after: string | null = null;
  while (all.length < SCAN_MAX) {
    const page = await read(after);
    all.push(...page.items);
    if (!page.nextCursor) break;
    after = page.nextCursor;
  }
  return all;
}

const balancesOf = (scope: TenantScope, filter: Filter) =>
  every<BalanceDoc>(scope, (after) =>
    balances(scope).find(scope.auth.tenantId, filter, { sort: { warehouseId: 1, lot: 1 }, limit: PAGE, after }),
  );

export const today = (scope: TenantScope): Promise<string> => companyDay(scope, scope.services.now());

/** Balance of a product per warehouse, with its lots (empty lots left out), as of the company's day. */
export async function productBalances(scope: TenantScope, productId: string, warehouseId?: string) {
  const day = await today(scope);
  const rows = await balancesOf(scope, { productId, ...(warehouseId ? { warehouseId } : {}) });
  const byWarehouse = new Map<string, { warehouseId: string; quantity: number; lots: Record<string, unknown>[] }>();
  for (const row of rows) {
    const entry = byWarehouse.get(row.warehouseId) ?? { warehouseId: row.warehouseId, quantity: 0, lots: [] };
    entry.quantity = Math.round((entry.quantity + row.quantity) * 1000) / 1000;
    if (row.quantity > 0)
      entry.lots.push({ lot: row.lot, expiry: row.expiry, quantity: row.quantity, expired: isExpired(row.expiry, day) });
    byWarehouse.set(row.warehouseId, entry);
  }
  const warehouses = [...byWarehouse.values()];
  return { productId, today: day, total: warehouses.reduce((s, w) => Math.round((s + w.quantity) * 1000) / 1000, 0), warehouses };
}

/** Lots of a product in a warehouse in the order an issue without a lot takes them (expired lots are not listed). */
export async function fefoOrder(scope: TenantScope, productId: string, warehouseId: string) {
  const day = await today(scope);
  const rows = await balancesOf(scope, { productId, warehouseId });
  const lots = fefoLots(
    rows.map((r) => ({ lot: r.lot, expiry: r.expiry, quantity: r.quantity })),
    day,
  );
  return { productId, warehouseId, today: day, lots };
}

/** Lots with stock that expire within `days` of the company's day (already expired ones included, flagged). */
export async function lotsExpiring(scope: TenantScope, days: number) {
  const day = await today(scope);
  const until = new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const rows = await balancesOf(scope, { expiry: { $ne: null, $lte: until }, quantity: { $gt: 0 } });
  const items = rows
    .map((r) => ({
      productId: r.productId,
      warehouseId: r.warehouseId,
      lot: r.lot,
      expiry: r.expiry,
      quantity: r.quantity,
      expired: isExpired(r.expiry, day),
    }))
    .sort((x, y) => (x.expiry ?? '').localeCompare(y.expiry ?? '') || x.productId.localeCompare(y.productId));
  return { today: day, until, items };
}

export interface KardexQuery {
  warehouseId?: string;
  from?: string;
  to?: string;
}

const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The movements of a product, oldest first, each with the balances after it (per warehouse and per lot). */
export async function productKardex(scope: TenantScope, productId: string, query: KardexQuery): Promise<Record<string, unknown>[]> {
  const at: Record<string, string> = {};
  if (query.from) at.$gte = query.from;
  if (query.to) at.$lt = nextDay(query.to);
  const filter: Filter = {
    productId,
    ...(query.warehouseId ? { warehouseId: query.warehouseId } : {}),
    ...(Object.keys(at).length ? { at } : {}),
  };
  const rows = await every<KardexDoc>(scope, (after) =>
    kardex(scope).find(scope.auth.tenantId, filter, { sort: { seq: 1 }, limit: PAGE, after }),
  );
  return rows.map(kardexView);
}

const KARDEX_COLUMNS = [
  'at',
  'type',
  'movementId',
  'warehouseId',
  'lot',
  'expiry',
  'quantity',
  'lotBalanceAfter',
  'balanceAfter',
  'reason',
  'reference',
  'actor',
  'costPerUnit',
  'valueAfter',
  'productCode',
  'productName',
];

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

const referenceOf = (details: Record<string, unknown>): string => {
  const ref = details.reference as { kind: string; sessionId?: string; patientId?: string } | undefined;
  if (ref) return ref.kind === 'session' ? `session:${ref.sessionId}` : ref.kind === 'patient' ? `patient:${ref.patientId}` : 'consumption';
  if (details.supplier) return `supplier:${textOf(details.supplier)} doc:${textOf(details.documentNumber)}`;
  if (details.toWarehouseId) return `to:${textOf(details.toWarehouseId)}`;
  if (details.fromWarehouseId) return `from:${textOf(details.fromWarehouseId)}`;
  return textOf(details.kind);
};

/** The product a kardex is of: every export names it. */
export interface KardexProduct {
  productCode: string;
  productName: string;
}

/** The kardex as CSV with a header row (RFC 4180 quoting); each row names the product. Years of lines: written in turns. */
export function kardexCsv(rows: Record<string, unknown>[], product: KardexProduct): Promise<string> {
  const cells = rows.map((row) => {
    const reference = referenceOf((row.details ?? {}) as Record<string, unknown>);
    const values = { ...row, ...product, reference } as Record<string, unknown>;
    return KARDEX_COLUMNS.map((c) => values[c]);
  });
  return csvTextInTurns(KARDEX_COLUMNS, cells);
}
