// A reusable dialyzer or bloodline issued to a patient becomes its serialized item: two more streams after the stock's,
// and no store appends to several at once. The StockIssued event carries the item's data (the intent); the item is then
// received and assigned with keys derived from the movement, so whoever completes it (the request, or the
// serialized-issues process manager after a crash in between) creates it once. When a rule refuses it (a serial in use,
// a patient no longer active), the stock takes the unit back.
import type { CommandContext } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { assignDialyzer, receiveDialyzer, type DialyzerDeps } from '../filtros-dialisis/dialyzerWrites.js';
import { assignBloodline, receiveBloodline, type LineDeps } from '../lineas/bloodlineWrites.js';
import type { ProductFields } from './productEvents.js';
import type { EquipmentInput, LotPortion } from './stockEvents.js';
import { productFacts, type StockDeps } from './stockFactWrites.js';
import { runStock } from './stockWrites.js';

/** What the StockIssued event of a serialized issue says: enough to create the item or to give the unit back. */
export interface SerializedIssueIntent {
  movementId: string;
  productId: string;
  warehouseId: string;
  patientId: string;
  equipment: EquipmentInput;
  portions: LotPortion[];
}

export const issueRevertKey = (movementId: string): string => `issue-revert\u0000${movementId}`;

/** The stock's dependencies and the items' (the company policy for the assignment). */
export type SerializeDeps = StockDeps & DialyzerDeps & LineDeps;

export type SerializedItem = { dialyzerId?: string; lineId?: string; position: bigint | null };

async function serialize(
  services: SerializeDeps,
  ctx: CommandContext,
  product: ProductFields,
  intent: SerializedIssueIntent,
  today: string,
): Promise<SerializedItem> {
  const { movementId, patientId, equipment: e } = intent;
  // One key per stream write: the assignment lands on the stream the reception created, and must not read as its retry.
  const keyed = { ...ctx, idempotencyKey: `serialize\u0000${movementId}` };
  const assigning = { ...ctx, idempotencyKey: `serialize-assign\u0000${movementId}` };
  const lot = intent.portions[0]?.lot ?? product.code;
  if (product.category === 'dialyzer') {
    const data = {
      model: product.name,
      surfaceM2: e.surfaceM2!,
      flux: e.flux!,
      membrane: e.membrane!,
      lot,
      serial: e.serial,
      reusable: true,
    };
    const { dialyzerId } = await receiveDialyzer(services, keyed, data);
    const assigned = await assignDialyzer(services, assigning, dialyzerId, { patientId, baselineTcvMl: e.baselineTcvMl! }, null);
    return { dialyzerId, position: assigned.position };
  }
  const lineType = e.lineType!;
  const data = { model: product.name, lot, serial: e.serial, primingVolumeMl: e.primingVolumeMl!, reusable: true, receivedOn: today };
  const { lineId } = await receiveBloodline(services, keyed, lineType, data);
  const assigned = await assignBloodline(services, assigning, lineType, lineId, patientId, null);
  return { lineId, position: assigned.position };
}

/** Creates and assigns the item; on a refusal gives the unit back and rethrows. A store error is left to the retry. */
export async function completeSerializedIssue(
  services: SerializeDeps,
  ctx: CommandContext,
  intent: SerializedIssueIntent,
): Promise<SerializedItem> {
  try {
    const { fields, facts } = await productFacts(services, ctx, intent.productId);
    return await serialize(services, ctx, fields, intent, facts.today);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const { movementId, productId, warehouseId, portions } = intent;
    const reason = `serialization refused: ${err.message}`;
    const givenBack = await runStock(services, { ...ctx, idempotencyKey: issueRevertKey(movementId) }, 'RevertIssue', {
      movementId,
      productId,
      warehouseId,
      portions,
      reason,
    });
    if (givenBack.position !== null) err.writtenAt = givenBack.position;
    throw err;
  }
}
