// Loads a company export into an event store: verifies the whole events part first (nothing is written from a
// broken export), then appends its events in position order with their stream revisions as expected revisions, and
// the company's platform record. The running projections (or the next start's catch-up) build the read models.
import type { Readable } from 'node:stream';
import type { EventMetadata, EventStore, NewEvent } from '../stores/eventStore.js';
import { PLATFORM_TENANT, streamName, TENANT_ID_PATTERN } from '../stores/eventStore.js';
import { uuidV5 } from '../commands/eventIds.js';
import { readExportLines, type CompanyEventLine, type EventLine } from './exportFormat.js';
import { ExportChecker, verifyExport, type VerifiedExport } from './verifyExport.js';

export interface ImportProgress {
  phase: 'verifying' | 'appending' | 'done';
  eventsDone: number;
  eventsTotal: number;
  percent: number;
}

export interface ImportOptions {
  /** Import as this new company id: stream names, metadata.tenantId, the data's copies of the id and event ids are rewritten. */
  asTenant?: string;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportResult {
  tenant: string;
  sourceTenant: string;
  events: number;
  /** Position of the last event appended here (wait for the projections to reach it). */
  position: bigint;
  /** The company's chain head here: equal to the export's when imported under the same id into a store without it. */
  chainHead: string | null;
  sameChain: boolean;
  /** 'imported': the platform record came from the export; 'kept': this store already had the company. */
  companyRecord: 'imported' | 'kept';
  verified: VerifiedExport;
}

/** The export does not fit this store (the company already has events here, or an incremental export does not follow on). */
export class ImportConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportConflictError';
  }
}

/** A source read twice (verify, then append): a path, or a function opening a fresh stream each time. */
export type ExportSource = string | (() => Readable);
const open = (source: ExportSource): string | Readable => (typeof source === 'string' ? source : source());

/** Replaces every string equal to the old company id, at any depth (ids are random: no other value equals one). */
function rewrite<T>(value: T, from: string, to: string): T {
  if (value === from) return to as T;
  if (Array.isArray(value)) return value.map((v: unknown) => rewrite(v, from, to)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, from, to)])) as T;
  return value;
}

export async function importCompany(
  services: { events: EventStore },
  source: ExportSource,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { events } = services;
  const progress: ImportProgress = { phase: 'verifying', eventsDone: 0, eventsTotal: 0, percent: 0 };
  const report = () => options.onProgress?.({ ...progress });
  report();
  const verified = await verifyExport(open(source), (n, announced) => {
    Object.assign(progress, { eventsDone: n, eventsTotal: announced, percent: Math.floor((n / Math.max(1, announced)) * 50) });
    report();
  });
  const { header } = verified;
  const from = header.tenant;
  const tenant = options.asTenant ?? from;
  if (!TENANT_ID_PATTERN.test(tenant)) throw new ImportConflictError(`${tenant} is not a company id`);
  const renamed = tenant !== from;
  await assertFits(events, tenant, header.after, renamed ? null : header.previousHash);

  Object.assign(progress, { phase: 'appending', eventsDone: 0, eventsTotal: verified.events, percent: 50 });
  report();
  const checker = new ExportChecker(); // the file is checked again as it is appended: what is written is what was verified
  const batch: NewEvent[] = [];
  let batchStream = '';
  let batchRevision = -1;
  let position = 0n;
  const flush = async () => {
    if (batch.length === 0) return;
    const expectedRevision = batchRevision < 0 ? 'no_stream' : batchRevision;
    position = (await events.appendToStream(batchStream, batch.splice(0), { expectedRevision })).position;
  };
  /** A new company's events take new ids (one store may hold both companies); causations follow them. */
  const newId = (id: unknown) => (typeof id === 'string' && renamed ? uuidV5(`${tenant}\u0000import\u0000${id}`) : id);
  const toNew = (e: EventLine | CompanyEventLine, metadata: Record<string, unknown>): NewEvent => ({
    id: newId(e.id) as string,
    type: e.type,
    data: renamed ? rewrite(e.data, from, tenant) : e.data,
    metadata: metadata as unknown as EventMetadata,
  });

  const companyStream = streamName(PLATFORM_TENANT, 'company', tenant);
  const companyExists = (await events.readStream(companyStream, { maxCount: 1 })).length > 0;
  let companyRevision = -1;
  for await (const { line, value } of readExportLines(open(source))) {
    checker.accept(line, value);
    if (value.kind === 'event') {
      const stream = renamed ? `${tenant}${value.stream.slice(from.length)}` : value.stream;
      if (stream !== batchStream || value.revision !== batchRevision + batch.length + 1) {
        await flush();
        batchStream = stream;
        batchRevision = value.revision - 1;
      }
      const metadata = renamed ? { ...value.metadata, tenantId: tenant, causationId: newId(value.metadata.causationId) } : value.metadata;
      batch.push(toNew(value, metadata));
      if (batch.length >= 100) {
        await flush();
        batchRevision = value.revision;
      }
      if (++progress.eventsDone % 500 === 0) {
        progress.percent = 50 + Math.floor((progress.eventsDone / Math.max(1, verified.events)) * 49);
        report();
      }
    } else if (value.kind === 'company' && !companyExists) {
      await flush();
      const appended = await events.appendToStream(companyStream, [toNew(value, value.metadata)], {
        expectedRevision: companyRevision < 0 ? 'no_stream' : companyRevision,
      });
      companyRevision++;
      position = appended.position > position ? appended.position : position;
    }
  }
  await flush();
  checker.result();
  const head = await events.chainHead(tenant);
  Object.assign(progress, { phase: 'done', percent: 100 });
  report();
  return {
    tenant,
    sourceTenant: from,
    events: verified.events,
    position,
    chainHead: head?.hash ?? null,
    sameChain: !renamed && head?.hash === verified.lastHash,
    companyRecord: companyExists ? 'kept' : 'imported',
    verified,
  };
}

/** A full export goes into a store without the company's events; an incremental one follows on from the chain head here. */
async function assertFits(events: EventStore, tenant: string, after: string, previousHash: string | null): Promise<void> {
  const existing = await events.headPosition(tenant);
  if (after === '0') {
    if (existing > 0n) throw new ImportConflictError(`company ${tenant} already has events here: import the export as a new company`);
    return;
  }
  const head = await events.chainHead(tenant);
  if (previousHash !== null && head?.hash !== previousHash)
    throw new ImportConflictError(`the export follows position ${after} of another chain than company ${tenant}'s here`);
}
