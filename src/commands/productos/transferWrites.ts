// A transfer spans two stock streams and no store appends to two at once. The out-event on the source is the intent (it
// names the destination and carries each lot with its expiry); the in-event on the destination completes it, keyed by
// the movement, so whoever completes it (the request, or the stock-transfers process manager after a crash in between)
// adds the units once. When the destination refuses (a rule), the source takes them back; never both.
import { DomainError } from '../decider.js';
import type { CommandContext, CommandResult } from '../handleCommand.js';
import { keyedCommandRan } from '../keyedRetry.js';
import { streamName } from '../../stores/eventStore.js';
import { stockDecider } from './stockDecider.js';
import { stockId, type LotPortion } from './stockEvents.js';
import type { StockState } from './shared/stockState.js';
import { recordLotExpiries } from './lotWrites.js';
import { movementIdFor, mustBeWarehouse, productFacts, type StockDeps } from './stockFactWrites.js';
import { outcomeOf, portionsOf, runStock, type MovementOutcome } from './stockWrites.js';

export interface TransferInput {
  fromWarehouseId: string;
  toWarehouseId: string;
  quantity: number;
  lot?: string;
}

/** What the out-event of a transfer says: enough to complete it or to give it back. */
export interface TransferIntent {
  movementId: string;
  productId: string;
  fromWarehouseId: string;
  toWarehouseId: string;
  portions: LotPortion[];
}

/** Idempotency keys of the two ways a transfer ends: the same whoever ends it. */
export const transferInKey = (movementId: string): string => `transfer-in\u0000${movementId}`;
export const transferRevertKey = (movementId: string): string => `transfer-revert\u0000${movementId}`;

/**
 * Into the destination, with each lot's expiry recorded company-wide (a lot held elsewhere with another date refuses it);
 * on a refusal, back into the source. A store error is thrown as it is: the process manager retries the completion.
 */
export async function completeTransfer(
  services: StockDeps,
  ctx: CommandContext,
  intent: TransferIntent,
): Promise<CommandResult<StockState>> {
  const { movementId, productId, fromWarehouseId, toWarehouseId, portions } = intent;
  const destination = streamName(ctx.tenantId, stockDecider.category, stockId(productId, toWarehouseId));
  // Completed already (a replay, or the request and the process manager both at it): nothing may refuse it now.
  const landed = await keyedCommandRan(services.events, destination, ctx.tenantId, transferInKey(movementId));
  try {
    const dated = portions.filter((p) => p.expiry !== null);
    if (!landed) await recordLotExpiries(services, ctx, productId, movementId, dated, 'lot');
    return await runStock(services, { ...ctx, idempotencyKey: transferInKey(movementId) }, 'TransferStockIn', {
      movementId,
      productId,
      warehouseId: toWarehouseId,
      fromWarehouseId,
      portions,
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const reason = `transfer refused by the destination: ${err.message}`;
    const givenBack = await runStock(services, { ...ctx, idempotencyKey: transferRevertKey(movementId) }, 'RevertTransferOut', {
      movementId,
      productId,
      warehouseId: fromWarehouseId,
      toWarehouseId,
      portions,
      reason,
    });
    if (givenBack.position !== null) err.writtenAt = givenBack.position;
    throw err;
  }
}

/** Out of the source (its decider checks the balance and takes the lots, by FEFO when none is named), then completed. */
export async function transferStock(
  services: StockDeps,
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
  const outcome = outcomeOf(movementId, productId, out);
  const into = await completeTransfer(services, ctx, {
    movementId,
    productId,
    fromWarehouseId,
    toWarehouseId,
    portions: portionsOf(outcome.lines),
  });
  return { ...outcome, lines: [...outcome.lines, ...outcomeOf(movementId, productId, into).lines], position: into.position };
}
