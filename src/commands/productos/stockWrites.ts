// Stock movements as the routes run them: one command on the stream of (product, warehouse); a transfer writes two
// streams in two steps (out, then in) and gives the units back to the source when the destination refuses.
import { handleCommand, type CommandContext, type CommandResult } from '../handleCommand.js';
import type { AppServices } from '../../services.js';
import type { Money } from './productEvents.js';
import { stockDecider } from './stockDecider.js';
import { stockId, type IssueReference, type LotPortion, type MovementLine, type StockCommand, type WriteOffKind } from './stockEvents.js';
import type { StockState } from './stockState.js';
import { movementIdFor, mustBeWarehouse, productFacts } from './stockFactWrites.js';

/** What a movement did: its lines (one per lot touched) with the balances they leave. */
export interface MovementOutcome {
  movementId: string;
  productId: string;
  lines: MovementLine[];
  /** True when the lot was chosen by FEFO (the request named none). */
  fefo: boolean;
  position: bigint | null;
}

type Data<T extends StockCommand['type']> = Extract<StockCommand, { type: T }>['data'];

export function runStock<T extends StockCommand['type']>(
  services: AppServices,
  ctx: CommandContext,
  type: T,
  data: Data<T>,
): Promise<CommandResult<StockState>> {
  const command = { type, aggregateId: stockId(data.productId, data.warehouseId), data } as unknown as StockCommand;
  return handleCommand(services.events, stockDecider, command, ctx);
}

export function outcomeOf(movementId: string, productId: string, result: CommandResult<StockState>): MovementOutcome {
  const data = result.events.map((e) => e.data as unknown as MovementLine & { fefo?: boolean });
  // Only the ledger part of each line: the rest (supplier, reference...) is in the kardex.
  const lines = data.map(({ movementId: m, productId: p, warehouseId, lot, expiry, quantity, lotBalanceAfter, balanceAfter }) => ({
    movementId: m,
    productId: p,
    warehouseId,
    lot,
    expiry,
    quantity,
    lotBalanceAfter,
    balanceAfter,
  }));
  return { movementId, productId, lines, fefo: data.some((l) => l.fefo === true), position: result.position };
}

export const portionsOf = (lines: MovementLine[]): LotPortion[] =>
  lines.map((l) => ({ lot: l.lot, expiry: l.expiry, quantity: Math.abs(l.quantity) }));

export interface ReceiptInput {
  warehouseId: string;
  quantity: number;
  lot?: string;
  expiry?: string;
  supplier: string;
  documentNumber: string;
  unitCost?: Money;
}

export async function receiveStock(
  services: AppServices,
  ctx: CommandContext,
  productId: string,
  input: ReceiptInput,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.warehouseId, 'warehouseId');
  const movementId = movementIdFor('receipt', ctx.idempotencyKey);
  const result = await runStock(services, ctx, 'ReceiveStock', { ...input, ...facts, movementId, productId });
  return outcomeOf(movementId, productId, result);
}

export interface AdjustmentInput {
  warehouseId: string;
  quantity: number;
  lot?: string;
  expiry?: string;
  reason: string;
}

export async function adjustStock(
  services: AppServices,
  ctx: CommandContext,
  productId: string,
  input: AdjustmentInput,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.warehouseId, 'warehouseId');
  const movementId = movementIdFor('adjustment', ctx.idempotencyKey);
  const result = await runStock(services, ctx, 'AdjustStock', { ...input, ...facts, movementId, productId });
  return outcomeOf(movementId, productId, result);
}

export interface WriteOffInput {
  warehouseId: string;
  kind: WriteOffKind;
  quantity: number;
  lot?: string;
  reason: string;
}

export async function writeOffStock(
  services: AppServices,
  ctx: CommandContext,
  productId: string,
  input: WriteOffInput,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.warehouseId, 'warehouseId');
  const movementId = movementIdFor('write-off', ctx.idempotencyKey);
  const result = await runStock(services, ctx, 'WriteOffStock', { ...input, ...facts, movementId, productId });
  return outcomeOf(movementId, productId, result);
}

export interface TransferInput {
  fromWarehouseId: string;
  toWarehouseId: string;
  quantity: number;
  lot?: string;
}

/**
 * Out of the source (its decider checks the balance), then into the destination with a key derived from the transfer,
 * so a retry never adds twice; when the destination refuses, the source takes the units back (compensation).
 */
export async function transferStock(
  services: AppServices,
  ctx: CommandContext,
  productId: string,
  input: TransferInput,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.fromWarehouseId, 'fromWarehouseId');
  await mustBeWarehouse(services, ctx.tenantId, input.toWarehouseId, 'toWarehouseId');
  const movementId = movementIdFor('transfer', ctx.idempotencyKey);
  const { fromWarehouseId, toWarehouseId, quantity, lot } = input;
  const out = await runStock(services, ctx, 'TransferStockOut', {
    ...facts,
    movementId,
    productId,
    warehouseId: fromWarehouseId,
    toWarehouseId,
    quantity,
    ...(lot !== undefined ? { lot } : {}),
  });
  const portions = portionsOf(outcomeOf(movementId, productId, out).lines);
  try {
    const into = await runStock(services, { ...ctx, idempotencyKey: `transfer-in\u0000${movementId}` }, 'TransferStockIn', {
      movementId,
      productId,
      warehouseId: toWarehouseId,
      fromWarehouseId,
      portions,
    });
    const outcome = outcomeOf(movementId, productId, out);
    return { ...outcome, lines: [...outcome.lines, ...outcomeOf(movementId, productId, into).lines], position: into.position };
  } catch (err) {
    const reason = `transfer refused by the destination: ${err instanceof Error ? err.message : String(err)}`;
    await runStock(services, { ...ctx, idempotencyKey: `transfer-revert\u0000${movementId}` }, 'RevertTransferOut', {
      movementId,
      productId,
      warehouseId: fromWarehouseId,
      toWarehouseId,
      portions,
      reason,
    });
    throw err;
  }
}

export interface IssueCore {
  warehouseId: string;
  quantity: number;
  lot?: string;
  reference: IssueReference;
  reason?: string;
}

/** The stock part of an issue (no serialization): the session process manager and the route share it. */
export async function issueFromStock(
  services: AppServices,
  ctx: CommandContext,
  productId: string,
  movementId: string,
  input: IssueCore,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.warehouseId, 'warehouseId');
  const result = await runStock(services, ctx, 'IssueStock', { ...input, ...facts, movementId, productId });
  return outcomeOf(movementId, productId, result);
}
