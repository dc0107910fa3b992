// Issues: to a session, a patient or plain consumption. A reusable dialyzer or bloodline issued to a patient becomes
// the serialized item of FiltrosDialisis / Lineas (ids derived from the movement, so a retry creates none twice); when
// that is refused the stock takes the unit back. consumeForSession is what the session process manager calls.
import type { CommandContext } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import { SERIALIZED_CATEGORIES, type ProductFields } from './productEvents.js';
import type { EquipmentInput, IssueReference } from './stockEvents.js';
import { completeSerializedIssue, type SerializeDeps } from './serializeWrites.js';
import { movementIdFor, mustBeReference, productFacts, type StockDeps } from './stockFactWrites.js';
import { issueFromStock, portionsOf, type MovementOutcome } from './stockWrites.js';

export interface IssueInput {
  warehouseId: string;
  quantity: number;
  lot?: string;
  sessionId?: string;
  patientId?: string;
  reason?: string;
  equipment?: EquipmentInput;
}

export type IssueOutcome = MovementOutcome & { dialyzerId?: string; lineId?: string };

const becomesSerialized = (product: ProductFields, input: IssueInput): boolean =>
  product.reusable && SERIALIZED_CATEGORIES.includes(product.category) && input.patientId !== undefined;

function checkEquipment(product: ProductFields, input: IssueInput): EquipmentInput {
  const checks = new FieldChecks();
  const e = input.equipment;
  checks.check(e !== undefined, 'equipment', `is required: a reusable ${product.category} issued to a patient becomes serialized`);
  checks.check(input.quantity === 1, 'quantity', 'a serialized item is issued one at a time');
  checks.throwIfAny();
  const need =
    product.category === 'dialyzer'
      ? (['surfaceM2', 'flux', 'membrane', 'baselineTcvMl'] as const)
      : (['lineType', 'primingVolumeMl'] as const);
  for (const field of need) checks.check(e![field] !== undefined, `equipment/${field}`, `is required for a ${product.category}`);
  checks.throwIfAny();
  return e!;
}

const referenceOf = (input: IssueInput): IssueReference =>
  input.sessionId !== undefined
    ? { kind: 'session', sessionId: input.sessionId }
    : input.patientId !== undefined
      ? { kind: 'patient', patientId: input.patientId }
      : { kind: 'consumption' };

export async function issueStock(
  services: SerializeDeps,
  ctx: CommandContext,
  productId: string,
  input: IssueInput,
): Promise<IssueOutcome> {
  const { fields } = await productFacts(services, ctx, productId);
  new FieldChecks()
    .check(
      input.sessionId === undefined || input.patientId === undefined,
      'patientId',
      'an issue goes to a session or to a patient, not both',
    )
    .throwIfAny();
  const serialized = becomesSerialized(fields, input);
  const equipment = serialized ? checkEquipment(fields, input) : undefined;
  await mustBeReference(services, ctx.tenantId, input);
  const movementId = movementIdFor('issue', ctx.idempotencyKey);
  const { warehouseId, quantity, lot, reason } = input;
  const core = { warehouseId, quantity, ...(lot !== undefined ? { lot } : {}), ...(reason !== undefined ? { reason } : {}) };
  const intent = { ...core, reference: referenceOf(input), ...(equipment ? { equipment } : {}) };
  const outcome = await issueFromStock(services, ctx, productId, movementId, intent);
  if (!equipment) return outcome;
  const item = await completeSerializedIssue(services, ctx, {
    movementId,
    productId,
    warehouseId,
    patientId: input.patientId!,
    equipment,
    portions: portionsOf(outcome.lines),
  });
  // The answer's position is the last write (the assignment): reading it back sees the serialized item too.
  return { ...outcome, ...item, position: item.position ?? outcome.position };
}

export interface SessionConsumption {
  sessionId: string;
  warehouseId: string;
  items: { productId: string; quantity: number; lot?: string }[];
}

export type ConsumedItem =
  | { productId: string; quantity: number; lot?: string; status: 'issued'; movementId: string; lines: MovementOutcome['lines'] }
  | { productId: string; quantity: number; lot?: string; status: 'shortage'; code: string; message: string; available?: number };

/**
 * Issues each item of a session's supplies from one warehouse, referenced to the session. Idempotent per (session,
 * product, lot): the key derives from them, so a replay answers what was issued. A refusal (not enough, expired lot,
 * unknown product) is reported per item, never thrown: the caller records it as an alert.
 */
export async function consumeForSession(
  services: StockDeps,
  ctx: CommandContext,
  input: SessionConsumption,
): Promise<{ items: ConsumedItem[] }> {
  const items: ConsumedItem[] = [];
  for (const item of input.items) {
    const key = `session-consumption\u0000${input.sessionId}\u0000${item.productId}\u0000${item.lot ?? ''}`;
    const keyed = { ...ctx, idempotencyKey: key };
    const movementId = movementIdFor('issue', key);
    const base = { productId: item.productId, quantity: item.quantity, ...(item.lot !== undefined ? { lot: item.lot } : {}) };
    try {
      const outcome = await issueFromStock(services, keyed, item.productId, movementId, {
        warehouseId: input.warehouseId,
        quantity: item.quantity,
        ...(item.lot !== undefined ? { lot: item.lot } : {}),
        reference: { kind: 'session', sessionId: input.sessionId },
      });
      items.push({ ...base, status: 'issued', movementId, lines: outcome.lines });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const available = typeof err.details?.available === 'number' ? err.details.available : undefined;
      items.push({ ...base, status: 'shortage', code: err.code, message: err.message, ...(available !== undefined ? { available } : {}) });
    }
  }
  return { items };
}
