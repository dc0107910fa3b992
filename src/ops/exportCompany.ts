// Exports one company as two gzip NDJSON parts: its events in log order with their chain hashes, the signed checkpoints
// and its platform record (events part), and its current read-model documents (records part). Pages, never the whole log.
import { chainEventJson } from '../integrity/chainEventJson.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../stores/eventStore.js';
import { PLATFORM_TENANT, streamName } from '../stores/eventStore.js';
import { genesisHash } from '../stores/chain/hashChain.js';
import type { Collection, ReadDoc } from '../stores/readStore.js';
import type { Integrity } from '../integrity/integrity.js';
import { recordCompanyExported, type ExportCaller } from '../commands/sistema/companyExportWrites.js';
import {
  EVENTS_PART,
  EXPORT_FORMAT,
  RECORDS_PART,
  ndjsonGzWriter,
  type EventLine,
  type NdjsonGzWriter,
  type RecordLine,
} from './exportFormat.js';

export interface ExportServices {
  events: EventStore;
  projections: {
    collection<T extends ReadDoc = ReadDoc>(projection: string, logical: string): Collection<T>;
    waitFor(position: bigint, options?: { timeoutMs?: number; tenant?: string }): Promise<boolean>;
  };
  integrity: Pick<Integrity, 'checkpoints' | 'publicKey'>;
  now(): Date;
}

/** A read-model collection of the records part: the projection and its logical collection name. */
export interface RecordCollection {
  projection: string;
  collection: string;
}

export interface ExportProgress {
  phase: 'events' | 'records' | 'done';
  eventsDone: number;
  eventsTotal: number;
  recordsDone: number;
  /** Of the events (the records follow them: 99 % until they are written too). */
  percent: number;
  bytes: number;
}

export interface ExportOptions {
  tenantId: string;
  /** Names the export in its parts and its audit event (default: a new UUID). */
  exportId?: string;
  /** Where the two parts are written (created by the caller). */
  directory: string;
  /** Only events after this position: the `through` of the previous export. */
  after?: bigint;
  collections: readonly RecordCollection[];
  caller: ExportCaller;
  onProgress?: (progress: ExportProgress) => void;
  /** Bounded wait for the read models to reach the exported position before the records are read. */
  recordsWaitMs?: number;
}

export interface ExportResult {
  after: string;
  through: string;
  events: number;
  records: number;
  lastHash: string;
  files: { events: string; records: string };
  bytes: number;
}

/** `after` is not the position of one of the company's events. */
export class ExportPositionError extends Error {
  constructor(readonly after: bigint) {
    super(`position ${after} is not one of the company's events`);
    this.name = 'ExportPositionError';
  }
}

const PAGE = 500;
/** Membership events name platform accounts, which a company export does not carry (see README, For integrators). */
export const MEMBERSHIP_EVENTS = new Set([
  'MembershipGranted',
  'MembershipOffered',
  'MembershipOfferDeclined',
  'MembershipOfferWithdrawn',
  'MembershipChanged',
  'MembershipRevoked',
]);

/** Every read-model collection of these projections. */
export const recordCollectionsOf = (projections: readonly { name: string; collections: Record<string, unknown> }[]): RecordCollection[] =>
  projections.flatMap((p) => Object.keys(p.collections).map((collection) => ({ projection: p.name, collection })));

/** The company's documents of each collection, a page at a time (without an adapter's private keys). */
export async function* companyRecords(
  projections: ExportServices['projections'],
  tenant: string,
  collections: readonly RecordCollection[],
): AsyncGenerator<RecordLine> {
  for (const { projection, collection } of collections) {
    const source = projections.collection(projection, collection);
    let cursor: string | null = null;
    do {
      const page = await source.find(tenant, {}, { limit: PAGE, after: cursor });
      for (const { _id: _private, ...doc } of page.items as (ReadDoc & { _id?: unknown })[])
        yield { kind: 'record', projection, collection, doc };
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
}

const eventLine = (e: RecordedEvent, hash: string | null): EventLine => ({ kind: 'event', ...chainEventJson(e, hash) });

/** The company's events after `after` up to `through`, in log order: the ones written before its chain began, then the chain. */
async function* companyEvents(events: EventStore, tenant: string, after: bigint, through: bigint): AsyncGenerator<EventLine> {
  const genesis = await events.chainGenesis(tenant);
  const chainFrom = genesis?.fromPosition ?? through + 1n;
  for (let from = after; from < chainFrom - 1n;) {
    const page = await events.readAll({ tenant, after: from, maxCount: PAGE });
    const before = page.filter((e) => e.position < chainFrom && e.position <= through);
    for (const e of before) yield eventLine(e, null);
    if (page.length < PAGE || before.length < page.length) break;
    from = page[page.length - 1]!.position;
  }
  if (!genesis) return;
  for (let from = after; ;) {
    const page = await events.readChain(tenant, { after: from, maxCount: PAGE });
    for (const e of page) {
      if (e.position > through) return;
      yield eventLine(e, e.hash);
    }
    if (page.length < PAGE) return;
    from = page[page.length - 1]!.position;
  }
}

/** The company's platform record (profile, modules, roles, status), a page at a time, without its memberships. */
async function* companyRecord(events: EventStore, tenant: string): AsyncGenerator<RecordedEvent> {
  const stream = streamName(PLATFORM_TENANT, 'company', tenant);
  for (let fromRevision = 0; ; fromRevision += PAGE) {
    const page = await events.readStream(stream, { fromRevision, maxCount: PAGE });
    for (const e of page) if (!MEMBERSHIP_EVENTS.has(e.type)) yield e;
    if (page.length < PAGE) return;
  }
}

async function previousHashAt(events: EventStore, tenant: string, after: bigint): Promise<string> {
  if (after === 0n) return genesisHash(tenant);
  const [event] = await events.readAll({ tenant, after: after - 1n, maxCount: 1 });
  if (!event || event.position !== after) throw new ExportPositionError(after);
  const genesis = await events.chainGenesis(tenant);
  if (!genesis || after < genesis.fromPosition) return genesisHash(tenant); // written before the chain began
  const [at] = await events.readChain(tenant, { after: after - 1n, maxCount: 1 });
  if (!at || at.position !== after || at.hash === null) throw new ExportPositionError(after);
  return at.hash;
}

async function countEvents(events: EventStore, tenant: string, after: bigint, through: bigint): Promise<number> {
  const [head, genesis, [first]] = await Promise.all([
    events.chainHead(tenant),
    events.chainGenesis(tenant),
    events.readAll({ tenant, maxCount: 1 }),
  ]);
  // The usual case, counted by the store: the whole chain, nothing before it.
  if (after === 0n && head && genesis && head.position === through && first && first.position >= genesis.fromPosition) return head.count;
  let n = 0;
  for await (const _ of companyEvents(events, tenant, after, through)) n++;
  return n;
}

export async function exportCompany(services: ExportServices, options: ExportOptions): Promise<ExportResult> {
  const { events, integrity } = services;
  const { tenantId: tenant, exportId = randomUUID() } = options;
  const after = options.after ?? 0n;
  const previousHash = await previousHashAt(events, tenant, after);
  await recordCompanyExported(events, tenant, { exportId, after: String(after) }, options.caller, services.now());
  await integrity.checkpoints.checkpointNow(tenant);
  const through = await events.headPosition(tenant);
  const total = await countEvents(events, tenant, after, through);
  const progress: ExportProgress = { phase: 'events', eventsDone: 0, eventsTotal: total, recordsDone: 0, percent: 0, bytes: 0 };
  options.onProgress?.({ ...progress });
  const files = { events: path.join(options.directory, EVENTS_PART), records: path.join(options.directory, RECORDS_PART) };
  const header = {
    kind: 'header' as const,
    format: EXPORT_FORMAT,
    exportId,
    tenant,
    after: String(after),
    through: String(through),
    previousHash,
    exportedAt: services.now().toISOString(),
    events: total,
    publicKey: integrity.publicKey,
  };
  const report = (writer: NdjsonGzWriter, base: number) => {
    progress.bytes = base + writer.bytes();
    progress.percent = total === 0 ? 99 : Math.min(99, Math.floor((progress.eventsDone / total) * 99));
    options.onProgress?.({ ...progress });
  };

  const eventsOut = ndjsonGzWriter(files.events);
  let lastHash = previousHash;
  try {
    await eventsOut.write({ ...header, part: 'events' });
    // Before the events, so a reader checks each against the event it names without keeping the chain.
    const checkpoints = (await integrity.checkpoints.list(tenant)).filter((c) => BigInt(c.position) <= through).reverse();
    for (const checkpoint of checkpoints) await eventsOut.write({ kind: 'checkpoint', ...checkpoint });
    for await (const line of companyEvents(events, tenant, after, through)) {
      await eventsOut.write(line);
      if (line.hash !== null) lastHash = line.hash;
      if (++progress.eventsDone % PAGE === 0) report(eventsOut, 0);
    }
    for await (const e of companyRecord(events, tenant)) {
      const metadata = e.metadata as unknown as Record<string, unknown>;
      await eventsOut.write({ kind: 'company', id: e.id, revision: e.revision, type: e.type, data: e.data, metadata });
    }
    await eventsOut.write({ kind: 'end', events: progress.eventsDone, lastHash });
    await eventsOut.close();
  } catch (err) {
    await eventsOut.abort();
    throw err;
  }
  report(eventsOut, 0);

  progress.phase = 'records';
  const eventsBytes = eventsOut.bytes();
  const waitMs = options.recordsWaitMs ?? 30_000;
  // Records older than the events would not be what the events build: better no export than a wrong one.
  if (!(await services.projections.waitFor(through, { tenant, timeoutMs: waitMs })))
    throw new Error(`the read models did not reach position ${through} within ${waitMs} ms (or a projection parked the company)`);
  const recordsOut = ndjsonGzWriter(files.records);
  try {
    await recordsOut.write({ ...header, part: 'records' });
    for await (const record of companyRecords(services.projections, tenant, options.collections)) {
      await recordsOut.write(record);
      if (++progress.recordsDone % PAGE === 0) report(recordsOut, eventsBytes);
    }
    await recordsOut.write({ kind: 'end', records: progress.recordsDone });
    await recordsOut.close();
  } catch (err) {
    await recordsOut.abort();
    throw err;
  }
  Object.assign(progress, { phase: 'done', percent: 100, bytes: eventsBytes + recordsOut.bytes() });
  options.onProgress?.({ ...progress });
  return {
    after: String(after),
    through: String(through),
    events: progress.eventsDone,
    records: progress.recordsDone,
    lastHash,
    files,
    bytes: progress.bytes,
  };
}
