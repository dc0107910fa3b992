// Stock movements as the routes run them: one command on the stream of (product, warehouse); a movement that brings a
// lot in first records the lot's expiry company-wide. Transfers, which write two streams, are in transferWrites.ts.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import type { Money } from './productEvents.js';
import { stockDecider } from './stockDecider.js';
import {
  stockId,
  type EquipmentInput,
  type IssueReference,
  type LotPortion,
  type MovementLine,
  type StockCommand,
  type WriteOffKind,
} from './stockEvents.js';
import type { StockState } from './shared/stockState.js';
import { movementIdFor, mustBeWarehouse, productFacts, type StockDeps } from './stockFactWrites.js';
import { recordLotExpiries, withLotExpiry } from './lotWrites.js';
import { streamName } from '../../stores/eventStore.js';

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
  services: StockDeps,
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
  const lines = data.map((l) => ({
    movementId: l.movementId,
    productId: l.productId,
    warehouseId: l.warehouseId,
    lot: l.lot,
    expiry: l.expiry,
    quantity: l.quantity,
    lotBalanceAfter: l.lotBalanceAfter,
    balanceAfter: l.balanceAfter,
    ...(l.costPerUnit !== undefined ? { costPerUnit: l.costPerUnit, valueAfter: l.valueAfter } : {}),
  }));
  return { movementId, productId, lines, fefo: data.some((l) => l.fefo === true), position: result.position };
}

/**
 * A movement that brings a lot in: decided first on the warehouse's stock with the lot's company-wide expiry (a refused
 * one records nothing), then the lot's expiry is recorded company-wide (a reservation), then the movement is appended.
 */
async function runIncoming<T extends 'ReceiveStock' | 'AdjustStock'>(
  services: StockDeps,
  ctx: CommandContext,
  type: T,
  data: Data<T>,
): Promise<CommandResult<StockState>> {
  const full = { ...data, ...(await withLotExpiry(services, ctx.tenantId, data.productId, data, data.lot)) } as Data<T>;
  const aggregateId = stockId(data.productId, data.warehouseId);
  const { state } = await loadAggregate(services.events, stockDecider, streamName(ctx.tenantId, stockDecider.category, aggregateId));
  const at = ctx.at ?? services.now().toISOString();
  const command = { type, aggregateId, data: full, at, actor: ctx.actor, tenantId: ctx.tenantId } as unknown as StockCommand;
  const incoming = portionsOf(stockDecider.decide(command, state).map((e) => e.data)).filter((p) => p.expiry !== null);
  await recordLotExpiries(services, ctx, data.productId, data.movementId, incoming, 'expiry');
  return runStock(services, ctx, type, full);
}

/** The lots a movement moved, with the cost they left at (what a transfer brings in, or a give-back restores). */
export const portionsOf = (lines: MovementLine[]): LotPortion[] =>
  lines.map((l) => ({
    lot: l.lot,
    expiry: l.expiry,
    quantity: Math.abs(l.quantity),
    ...(l.costPerUnit !== undefined ? { costPerUnit: l.costPerUnit } : {}),
  }));

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
  services: StockDeps,
  ctx: CommandContext,
  productId: string,
  input: ReceiptInput,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.warehouseId, 'warehouseId');
  const movementId = movementIdFor('receipt', ctx.idempotencyKey);
  const result = await runIncoming(services, ctx, 'ReceiveStock', { ...input, ...facts, movementId, productId });
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
  services: StockDeps,
  ctx: CommandContext,
  productId: string,
  input: AdjustmentInput,
): Promise<MovementOutcome> {
  const { facts } = await productFacts(services, ctx, productId);
  await mustBeWarehouse(services, ctx.tenantId, input.warehouseId, 'warehouseId');
  const movementId = movementIdFor('adjustment', ctx.idempotencyKey);
  const data = { ...input, ...facts, movementId, productId };
  const result = await (input.quantity > 0
    ? runIncoming(services, ctx, 'AdjustStock', data)
    : runStock(services, ctx, 'AdjustStock', data));
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
  services: StockDeps,
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

export interface IssueCore {
  warehouseId: string;
  quantity: number;
  lot?: string;
  reference: IssueReference;
  reason?: string;
  /** The serialized item the issue becomes: recorded with it as the intent (serializeWrites.ts completes it). */
  equipment?: EquipmentInput;
}

/** The stock part of an issue (no serialization): the session process manager and the route share it. */
export async function issueFromStock(
  services: StockDeps,
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
