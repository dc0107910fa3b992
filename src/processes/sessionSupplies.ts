// The supplies of a treated session (issue 11 item 3): when a session ends (or is interrupted after its start) it
// consumes its patient's kit (else the company default) plus the medications given that name a product (with their
// lot), issued from the kit's warehouse and referenced to the session. Each item is recorded on the session's
// consequences as applied or refused: a shortage is an alert, never a silent negative. Replays change nothing: the
// session is read as it was at its end, the kit as it was in force then, items already recorded are not issued again,
// and the issues are keyed per (session, product, lot).
import { consumeForSession } from '../commands/productos/issueWrites.js';
import { supplyKitInForce } from '../commands/productos/kitWrites.js';
import { consequenceDecider } from '../commands/dialisis/consequences/consequenceDecider.js';
import { sessionDecider } from '../commands/dialisis/session/sessionDecider.js';
import type { Medication, SessionEvent } from '../commands/dialisis/session/sessionEvents.js';
import type { SessionState } from '../commands/dialisis/session/sessionState.js';
import type { AppServices } from '../services.js';
import { aggregateIdOfStream, categoryOfStream, streamName, tenantOfStream, type RecordedEvent } from '../stores/eventStore.js';
import { consequenceContext, recordOutcome } from './consequenceRecording.js';
import type { ProcessManager } from './processRunner.js';

type SupplyItem = { productId: string; quantity: number; lot?: string };

/** The consequence's item: the product, with the lot when one was named. */
export const supplyItemId = (item: { productId: string; lot?: string }): string =>
  item.lot === undefined ? item.productId : `${item.productId}:${item.lot}`;

/** The session as it was at the causing event (later entries, e.g. a medication recorded after the end, are not its). */
async function sessionAt(services: AppServices, event: RecordedEvent): Promise<{ state: SessionState; medications: Medication[] }> {
  const history = await services.events.readStream(event.streamName, { maxCount: event.revision + 1 });
  let state = sessionDecider.initialState;
  const medications: Medication[] = [];
  for (const e of history) {
    const decided = { type: e.type, data: e.data } as unknown as SessionEvent;
    state = sessionDecider.evolve(state, decided);
    if (decided.type === 'MedicationAdministered') medications.push(decided.data);
  }
  return { state, medications };
}

/** Kit lines and medications given with a product, one line per (product, lot): the issues are keyed that way. */
export function suppliesOf(kitItems: readonly SupplyItem[], medications: readonly Medication[]): SupplyItem[] {
  const lines = new Map<string, SupplyItem>();
  const add = (item: SupplyItem) => {
    const key = supplyItemId(item);
    const held = lines.get(key);
    lines.set(key, held ? { ...held, quantity: Math.round((held.quantity + item.quantity) * 1000) / 1000 } : { ...item });
  };
  kitItems.forEach(add);
  for (const m of medications) {
    if (!m.given || m.productId === undefined) continue;
    add({ productId: m.productId, quantity: m.stockQuantity ?? 1, ...(m.lot !== undefined ? { lot: m.lot } : {}) });
  }
  return [...lines.values()];
}

async function react(event: RecordedEvent, services: AppServices): Promise<void> {
  if (categoryOfStream(event.streamName) !== sessionDecider.category) return;
  const tenantId = tenantOfStream(event.streamName);
  const sessionId = aggregateIdOfStream(event.streamName);
  const { state, medications } = await sessionAt(services, event);
  const patientId = state.scheduled?.patientId;
  if (!state.equipment || !patientId) return; // never started: nothing was used
  const inForce = await supplyKitInForce(services, tenantId, patientId, event.position);
  const items = suppliesOf(inForce?.kit.items ?? [], medications);
  // An item already recorded for this end is never issued again (a shortage stays refused even if stock came later).
  const done = new Set<string>();
  for (const e of await services.events.readStream(streamName(tenantId, consequenceDecider.category, sessionId))) {
    const data = e.data as { kind?: string; itemId?: string; causeEventId?: string };
    if (data.kind === 'supply' && data.causeEventId === event.id && data.itemId) done.add(data.itemId);
  }
  const pending = items.filter((item) => !done.has(supplyItemId(item)));
  if (pending.length === 0) return;
  if (!inForce) {
    const refusal = { code: 'no-supply-kit', message: 'no kit of the patient or the company names the warehouse to issue from' };
    for (const item of pending) await recordOutcome(services, event, sessionId, 'supply', supplyItemId(item), refusal);
    return;
  }
  const ctx = consequenceContext(event, 'supply');
  const consumed = await consumeForSession(services, ctx, { sessionId, warehouseId: inForce.kit.warehouseId, items: pending });
  for (const item of consumed.items) {
    const refusal =
      item.status === 'issued'
        ? null
        : {
            code: item.code,
            message: `${item.quantity} needed from the kit's warehouse: ${item.message}${item.available !== undefined ? ` (${item.available} available)` : ''}`,
          };
    await recordOutcome(services, event, sessionId, 'supply', supplyItemId(item), refusal);
  }
}

export const sessionSupplies: ProcessManager<AppServices> = {
  name: 'session-supplies',
  eventTypes: ['SessionEnded', 'SessionInterrupted'],
  react,
};
