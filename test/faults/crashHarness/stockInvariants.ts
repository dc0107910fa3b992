// Invariants of stock and of the consequences of an ended session: every warehouse's balance (as the API shows it)
// equals the sum of its movements in the log; no transfer or serialized issue is left half done; an ended session's
// machine hours, dialyzer use, payer consumption and kit supplies are applied exactly once.
import type { Api } from './api.js';
import type { EventLog } from './eventLog.js';
import { foldAuthorization } from './claimInvariants.js';
import type { Company } from './seed.js';

/** `<productId>_<warehouseId>`: the stock stream's id. */
const stockKey = (productId: string, warehouseId: string) => `${productId}_${warehouseId}`;

export async function balanceViolations(api: Api, log: EventLog, company: Company): Promise<string[]> {
  const out: string[] = [];
  for (const productId of [company.supplyId, company.dialyzerProductId]) {
    const balances = await api.expect(200, 'GET', `/productos/${productId}/saldos`);
    const shown = new Map((balances.warehouses as { warehouseId: string; quantity: number }[]).map((w) => [w.warehouseId, w.quantity]));
    for (const warehouseId of company.warehouses) {
      const movements = log.stream('stock', stockKey(productId, warehouseId));
      const sum = movements.reduce((s, e) => s + (e.data.quantity as number), 0);
      const last = (movements.at(-1)?.data.balanceAfter as number | undefined) ?? 0;
      if (sum !== last) out.push(`stock ${productId} in ${warehouseId}: movements sum to ${sum}, the last balance says ${last}`);
      if ((shown.get(warehouseId) ?? 0) !== sum)
        out.push(`stock ${productId} in ${warehouseId}: the API shows ${String(shown.get(warehouseId))}, its movements sum to ${sum}`);
    }
  }
  return out;
}

/** Transfers out of a warehouse that never arrived nor came back, and serialized issues with no item and no revert. */
export function inFlightViolations(log: EventLog): string[] {
  const out: string[] = [];
  const ofType = (type: string) => {
    const counts = new Map<string, number>();
    for (const e of log.ofType(type)) counts.set(e.data.movementId as string, (counts.get(e.data.movementId as string) ?? 0) + 1);
    return counts;
  };
  const arrived = ofType('StockTransferredIn');
  const reverted = ofType('StockTransferReverted');
  for (const out_ of log.ofType('StockTransferredOut')) {
    const id = out_.data.movementId as string;
    const settled = (arrived.get(id) ?? 0) + (reverted.get(id) ?? 0);
    if (settled === 0) out.push(`transfer ${id} left its warehouse and is still in flight`);
    if (settled > 1)
      out.push(`transfer ${id} was completed ${settled} times (arrived ${arrived.get(id) ?? 0}, given back ${reverted.get(id) ?? 0})`);
  }
  const serials = new Map(log.ofType('DialyzerReceived').map((e) => [e.data.serial as string, e.id]));
  const issueReverts = ofType('StockIssueReverted');
  for (const issue of log.ofType('StockIssued')) {
    const equipment = issue.data.equipment as { serial: string } | undefined;
    if (!equipment) continue;
    const id = issue.data.movementId as string;
    const item = serials.get(equipment.serial);
    const back = issueReverts.get(id) ?? 0;
    if (!item && back === 0) out.push(`serialized issue ${id} (serial ${equipment.serial}) left the stock but no dialyzer exists`);
    if (item && back > 0) out.push(`serialized issue ${id} has its dialyzer ${item} and was also given back`);
    if (back > 1) out.push(`serialized issue ${id} was given back ${back} times`);
  }
  return out;
}

/** Every ended session: its machine use ended once, its dialyzer used once, one payer unit consumed, one kit supply issued. */
export function consequenceViolations(log: EventLog, company: Company): string[] {
  const out: string[] = [];
  const perSession = (type: string) => {
    const counts = new Map<string, number>();
    for (const e of log.ofType(type)) counts.set(e.data.sessionId as string, (counts.get(e.data.sessionId as string) ?? 0) + 1);
    return counts;
  };
  const machineEnds = perSession('MachineUseEnded');
  const dialyzerUses = perSession('DialyzerUsed');
  const consumed = new Map<string, number>();
  for (const [, events] of log.streams('payerAuthorization'))
    for (const [sessionId, n] of foldAuthorization(events).consumed) consumed.set(sessionId, (consumed.get(sessionId) ?? 0) + n);
  const supplies = new Map<string, number>();
  for (const e of log.ofType('StockIssued')) {
    const ref = e.data.reference as { kind?: string; sessionId?: string } | undefined;
    if (e.data.productId === company.supplyId && ref?.kind === 'session')
      supplies.set(ref.sessionId!, (supplies.get(ref.sessionId!) ?? 0) - (e.data.quantity as number));
  }
  for (const ended of log.ofType('SessionEnded')) {
    const id = ended.id;
    const once = (what: string, n: number) => {
      if (n === 0) out.push(`session ${id} ended but its ${what} was never applied`);
      if (n > 1) out.push(`session ${id} ended and its ${what} was applied ${n} times`);
    };
    once('machine use (hours)', machineEnds.get(id) ?? 0);
    once('dialyzer use', dialyzerUses.get(id) ?? 0);
    once('payer consumption', consumed.get(id) ?? 0);
    once('kit supply', supplies.get(id) ?? 0);
  }
  return out;
}

/** Each authorization as the API shows it: used equals its consumptions in the log, reserved its held reservations. */
export async function authorizationCountViolations(
  api: Api,
  log: EventLog,
  company: Company,
  authorizationIds: string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const id of authorizationIds) {
    const shown = await api.expect(200, 'GET', `/clientes/${company.clientId}/autorizaciones/${id}`);
    const { reserved, consumed } = foldAuthorization(log.stream('payerAuthorization', id));
    const used = [...consumed.values()].reduce((a, b) => a + b, 0);
    if (shown.used !== used) out.push(`authorization ${id}: the API says used ${String(shown.used)}, the log has ${used} consumptions`);
    if (shown.reserved !== reserved.size)
      out.push(`authorization ${id}: the API says reserved ${String(shown.reserved)}, the log holds ${reserved.size}`);
  }
  return out;
}
