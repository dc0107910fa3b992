// The second half of stock movements that span streams (issue 21 item 16): a transfer's out-event and a serialized
// issue's StockIssued are intents. The request completes them at once; when it stopped in between (a crash, a store
// error), these process managers complete them from their checkpoint, at start and as the log goes on: the transfer's
// units go into the destination (or back to the source when refused), the issued unit becomes its serialized item (or
// comes back). Every write is keyed by the movement, so completing twice, or racing the request, changes nothing.
import { DomainError } from '../commands/decider.js';
import type { CommandContext } from '../commands/handleCommand.js';
import { keyedCommandRan } from '../commands/keyedRetry.js';
import { completeSerializedIssue, issueRevertKey } from '../commands/productos/serializeWrites.js';
import type { EquipmentInput, IssueReference, MovementLine } from '../commands/productos/stockEvents.js';
import { portionsOf } from '../commands/productos/stockWrites.js';
import { completeTransfer, transferRevertKey } from '../commands/productos/transferWrites.js';
import { traceCausedBy } from '../observability/traceContext.js';
import type { AppServices } from '../services.js';
import { categoryOfStream, tenantOfStream, type RecordedEvent } from '../stores/eventStore.js';
import type { ProcessManager } from './processRunner.js';

export const STOCK_COMPLETION_ACTOR = 'process:stock-completion';

/** Completions run at the intent's time, in its correlation and trace; each write sets its own key from the movement. */
const contextOf = (event: RecordedEvent): CommandContext => ({
  tenantId: tenantOfStream(event.streamName),
  actor: STOCK_COMPLETION_ACTOR,
  sessionId: null,
  correlationId: event.metadata.correlationId,
  causationId: event.id,
  idempotencyKey: null,
  ip: null,
  userAgent: null,
  at: event.metadata.occurredAt,
  ...traceCausedBy(event.metadata),
});

/** A movement's lines are read forwards from its first in pages of this size (one line per lot it touched). */
const LINES_PAGE = 8;

/**
 * The lines of the intent's movement (one per lot, appended together), or null when it is not the first of them or
 * the units were already given back: a movement is completed once, from its first line. Reads the lines and the one
 * before them, and looks the give-back up by its key: never the stream's history.
 */
async function movementLines(services: AppServices, event: RecordedEvent, revertKey: string): Promise<MovementLine[] | null> {
  const { movementId } = event.data as MovementLine;
  const stream = event.streamName;
  if (await keyedCommandRan(services.events, stream, tenantOfStream(stream), revertKey)) return null;
  const ofMovement = (e: RecordedEvent) => e.type === event.type && (e.data as MovementLine).movementId === movementId;
  if (event.revision > 0) {
    const [before] = await services.events.readStream(stream, { direction: 'backwards', fromRevision: event.revision - 1, maxCount: 1 });
    if (before && ofMovement(before)) return null;
  }
  const lines: MovementLine[] = [];
  for (let from = event.revision; ; from += LINES_PAGE) {
    const page = await services.events.readStream(stream, { fromRevision: from, maxCount: LINES_PAGE });
    const end = page.findIndex((e) => !ofMovement(e));
    for (const e of end < 0 ? page : page.slice(0, end)) lines.push(e.data as MovementLine);
    if (end >= 0 || page.length < LINES_PAGE) break;
  }
  return lines.length > 0 ? lines : null;
}

/** A refusal is already recorded (the units came back, in the kardex with its reason); anything else is retried. */
async function refusalsRecorded(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
  }
}

async function completeTransferOf(event: RecordedEvent, services: AppServices): Promise<void> {
  if (categoryOfStream(event.streamName) !== 'stock') return;
  const { movementId, productId, warehouseId, toWarehouseId } = event.data as MovementLine & { toWarehouseId: string };
  const lines = await movementLines(services, event, transferRevertKey(movementId));
  if (!lines) return;
  const intent = { movementId, productId, fromWarehouseId: warehouseId, toWarehouseId, portions: portionsOf(lines) };
  await refusalsRecorded(() => completeTransfer(services, contextOf(event), intent));
}

async function completeSerializedIssueOf(event: RecordedEvent, services: AppServices): Promise<void> {
  if (categoryOfStream(event.streamName) !== 'stock') return;
  const data = event.data as MovementLine & { reference: IssueReference; equipment?: EquipmentInput };
  if (!data.equipment || data.reference.kind !== 'patient') return; // not a serialized issue
  const lines = await movementLines(services, event, issueRevertKey(data.movementId));
  if (!lines) return;
  const { movementId, productId, warehouseId, equipment } = data;
  const intent = { movementId, productId, warehouseId, patientId: data.reference.patientId, equipment, portions: portionsOf(lines) };
  await refusalsRecorded(() => completeSerializedIssue(services, contextOf(event), intent));
}

export const stockTransfers: ProcessManager<AppServices> = {
  name: 'stock-transfers',
  eventTypes: ['StockTransferredOut'],
  react: completeTransferOf,
};

export const serializedIssues: ProcessManager<AppServices> = {
  name: 'stock-serialized-issues',
  eventTypes: ['StockIssued'],
  react: completeSerializedIssueOf,
};
