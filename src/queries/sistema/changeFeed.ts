// A page of a company's change feed: its log after a position (the tenant index of the event store), the categories the
// caller may see and the filters it asked for, each event attributed to its patient through the audit trail's owners.
import type { ReadServices } from '../../readServices.js';
import { categoryOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { AUDIT_TRAIL, PATIENT_RECORDS, type StreamOwnerDoc } from '../../projections/sistema/auditEntryDoc.js';
import { eventVisible, patientNamedBy, toFeedEvent, type FeedEvent } from './feedEvents.js';

/** How long a page waits for the audit trail to learn the owners of the streams it shows. */
const OWNERS_WAIT_MS = 2_000;
const READ_BATCH = 500;

export interface FeedFilter {
  /** What the caller holds: categories it may not see are skipped. */
  permissions: ReadonlySet<string>;
  recordTypes: ReadonlySet<string> | null;
  types: ReadonlySet<string> | null;
  patientId: string | null;
}

export interface FeedPage {
  items: FeedEvent[];
  /** Resume after this position: the last item's when the page is full, else the last event read (matching or not). */
  next: bigint;
  /** The company's last position when the page was read. */
  head: bigint;
}

const shown = (event: RecordedEvent, filter: FeedFilter): boolean => {
  const category = categoryOfStream(event.streamName);
  if (!eventVisible(event, filter.permissions)) return false;
  if (filter.recordTypes && !filter.recordTypes.has(category)) return false;
  return !filter.types || filter.types.has(event.type);
};

/**
 * The patient of each event (of one company): its stream's owner as the audit trail learned it, else the patient its own
 * data names. Webhook payloads use it too, with toFeedEvent.
 */
export async function owningPatients(services: ReadServices, tenant: string, events: RecordedEvent[]): Promise<(string | null)[]> {
  const owned = events.filter((e) => PATIENT_RECORDS.has(categoryOfStream(e.streamName)));
  const owners = new Map<string, string | null>();
  if (owned.length > 0) {
    await services.projections.waitFor(owned.at(-1)!.position, { projections: [AUDIT_TRAIL.projection], timeoutMs: OWNERS_WAIT_MS });
    const collection = services.projections.collection<StreamOwnerDoc>(AUDIT_TRAIL.projection, AUDIT_TRAIL.owners);
    for (const key of new Set(owned.map((e) => e.streamName.slice(tenant.length + 1)))) {
      owners.set(key, (await collection.get(tenant, key))?.patientId ?? null);
    }
  }
  return events.map((e) => owners.get(e.streamName.slice(tenant.length + 1)) ?? patientNamedBy(e));
}

/**
 * Up to `limit` events after `after` that the caller may see and asked for. At most FEED scan budget events are read per
 * page, so a page may hold fewer items (even none) while `next` still advances: follow `next` until it reaches `head`.
 */
export async function readFeedPage(
  services: ReadServices,
  tenant: string,
  options: { after: bigint; limit: number; scanBudget: number },
  filter: FeedFilter,
): Promise<FeedPage> {
  const items: FeedEvent[] = [];
  let next = options.after;
  let scanned = 0;
  while (items.length < options.limit && scanned < options.scanBudget) {
    const batch = await services.events.readAll({ tenant, after: next, maxCount: Math.min(READ_BATCH, options.scanBudget - scanned) });
    scanned += batch.length;
    const candidates = batch.filter((e) => shown(e, filter));
    const patients = await owningPatients(services, tenant, candidates);
    let full = false;
    for (const [index, event] of candidates.entries()) {
      const patientId = patients[index]!;
      if (filter.patientId && patientId !== filter.patientId) continue;
      items.push(toFeedEvent(event, patientId));
      if (items.length === options.limit) {
        next = event.position;
        full = true;
        break;
      }
    }
    if (!full && batch.length > 0) next = batch.at(-1)!.position;
    if (full || batch.length < READ_BATCH) break;
  }
  return { items, next, head: await services.events.headPosition(tenant) };
}
