// Given events / then documents: how projection specs read (Emmett's PostgreSQLProjectionSpec, Marten's projection
// tests), the read-side twin of src/commands/givenWhenThen.ts. The events go through the runner's own batch
// (ProjectionBatch: the type filter, the redelivery guard, the undo on a throw, the write-back) into a real embedded
// read store, numbered as the log would number them. An event listed again is delivered again through a new batch
// starting just before it, as after a restart from an older checkpoint (list the events after it too for the runner's
// whole replay): its second delivery must change nothing. `thenIdempotent` replays everything from the start.
import assert from 'node:assert/strict';
import { streamName, tenantOfStream, type EventMetadata, type RecordedEvent } from '../../stores/eventStore.js';
import { createEmbeddedReadStore } from '../../stores/embedded/embeddedReadStore.js';
import type { Collection, Filter, FindOptions } from '../../stores/readStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { eventTypeSet, type ProjectedDoc, type Projection } from './projection.js';
import { ProjectionBatch } from './projectionBatch.js';
import { ParkedScopes } from './parkedScopes.js';
import { versionSuffix } from './checkpoints.js';

/** An event as a decider decides it, with optional metadata (occurredAt, actor, ...). */
export interface Fact {
  type: string;
  data: object;
  metadata?: Partial<EventMetadata>;
}

/** An event of one stream, before the log numbers it. The same object listed twice is delivered twice. */
export interface SpecEvent extends Fact {
  stream: string;
}

/** Default clock of the spec events: event n (position n) occurs n minutes after it, unless its metadata says. */
export const SPEC_T0 = '2025-03-03T08:00:00.000Z';

/** The events of the stream `<tenant>.<category>-<id>`: `patient('t1', 'patient', 'p1')(registered(), ...)`. */
export function streamOf(tenantId: string, category: string, id: string): (...facts: Fact[]) => SpecEvent[] {
  const stream = streamName(tenantId, category, id);
  return (...facts) => facts.map((fact) => ({ ...fact, stream }));
}

/** A fact with metadata (e.g. `at('2025-03-04T10:00:00Z', amended)`: the instant the event occurred). */
export const at = (occurredAt: string, fact: Fact, metadata: Partial<EventMetadata> = {}): Fact => ({
  ...fact,
  metadata: { ...fact.metadata, ...metadata, occurredAt },
});

/** What a spec asserts, in one tenant's scope (by default the first event's tenant). */
export interface ProjectionOutcome {
  /** The document must exist; `check` asserts on it. Resolves to it. */
  then<T extends ProjectedDoc = ProjectedDoc>(collection: string, id: string, check?: (doc: T) => void): Promise<T>;
  thenAbsent(collection: string, id: string): Promise<void>;
  /** The documents a query finds (the read store's own filter and sort). */
  thenFind<T extends ProjectedDoc = ProjectedDoc>(
    collection: string,
    filter: Filter,
    check: (docs: T[]) => void,
    options?: FindOptions,
  ): Promise<T[]>;
  /** The same assertions in another tenant's scope ('platform' for platform documents). */
  in(tenantId: string): ProjectionOutcome;
  /** Every event delivered again from the start (a replay from checkpoint 0) leaves every document as it was. */
  thenIdempotent(): Promise<void>;
}
// Not a thenable by accident: never `await` an outcome itself, only what its methods return.

/** The log's numbering: position in delivery order, revision per stream; a redelivered event keeps its numbers. */
function record(events: readonly SpecEvent[]): RecordedEvent[] {
  const numbered = new Map<SpecEvent, RecordedEvent>();
  const revisions = new Map<string, number>();
  let position = 0n;
  return events.map((event) => {
    const known = numbered.get(event);
    if (known) return known;
    const revision = revisions.get(event.stream) ?? 0;
    revisions.set(event.stream, revision + 1);
    position++;
    const recorded: RecordedEvent = {
      id: `e${position}`,
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: {
        tenantId: tenantOfStream(event.stream),
        actor: 'user-1',
        sessionId: 'session-1',
        correlationId: `c${position}`,
        causationId: null,
        commandId: `cmd${position}`,
        occurredAt: new Date(Date.parse(SPEC_T0) + Number(position) * 60_000).toISOString(),
        ip: null,
        userAgent: null,
        reason: null,
        ...event.metadata,
      },
      streamName: event.stream,
      revision,
      position,
    };
    numbered.set(event, recorded);
    return recorded;
  });
}

type Collections = Map<string, Collection<ProjectedDoc>>;

/** Feeds the events through the runner's batch; a redelivery starts a new batch at the checkpoint before it. */
async function deliver(projection: Projection, collections: Collections, events: readonly RecordedEvent[]): Promise<void> {
  const types = eventTypeSet(projection);
  const parked = new ParkedScopes();
  let batch = new ProjectionBatch(projection, collections, 0n, parked);
  for (const event of events) {
    if (batch.position !== 0n && event.position <= batch.position) {
      await batch.writeBack();
      batch = new ProjectionBatch(projection, collections, event.position - 1n, parked);
    }
    await batch.apply(event, types);
  }
  await batch.writeBack();
}

async function snapshot(collections: Collections, tenants: ReadonlySet<string>): Promise<Record<string, ProjectedDoc[]>> {
  const all: Record<string, ProjectedDoc[]> = {};
  for (const [name, collection] of collections) {
    for (const tenant of tenants) all[`${name} ${tenant}`] = (await collection.find(tenant, {})).items;
  }
  return all;
}

/** `projectionSpec(p)(...events)`: the projection's documents after the events, on a fresh embedded read store. */
export function projectionSpec(projection: Projection) {
  return (...given: (SpecEvent | SpecEvent[])[]): ProjectionOutcome => {
    const events = record(given.flat());
    const tenants = new Set([PLATFORM_DOCS, ...events.map((e) => tenantOfStream(e.streamName))]);
    let applied: Promise<Collections> | null = null;
    const collections = (): Promise<Collections> =>
      (applied ??= (async () => {
        const reads = createEmbeddedReadStore();
        const opened: Collections = new Map();
        for (const [logical, indexes] of Object.entries(projection.collections)) {
          opened.set(logical, await reads.collection<ProjectedDoc>(logical + versionSuffix(projection.version), indexes));
        }
        await deliver(projection, opened, events);
        return opened;
      })());
    const open = async (name: string): Promise<Collection<ProjectedDoc>> => {
      const collection = (await collections()).get(name);
      assert.ok(collection, `projection ${projection.name} has no collection '${name}'`);
      return collection;
    };
    const outcome = (tenantId: string): ProjectionOutcome => ({
      async then<T extends ProjectedDoc>(collection: string, id: string, check?: (doc: T) => void) {
        const doc = (await (await open(collection)).get(tenantId, id)) as T | null;
        assert.ok(doc, `expected ${collection} '${id}' in tenant ${tenantId}, found none`);
        check?.(doc);
        return doc;
      },
      async thenAbsent(collection, id) {
        const doc = await (await open(collection)).get(tenantId, id);
        assert.equal(doc, null, `expected no ${collection} '${id}' in tenant ${tenantId}`);
      },
      async thenFind<T extends ProjectedDoc>(collection: string, filter: Filter, check: (docs: T[]) => void, options?: FindOptions) {
        const docs = (await (await open(collection)).find(tenantId, filter, options)).items as T[];
        check(docs);
        return docs;
      },
      in: outcome,
      async thenIdempotent() {
        const opened = await collections();
        const before = await snapshot(opened, tenants);
        await deliver(projection, opened, events);
        assert.deepEqual(await snapshot(opened, tenants), before, 'delivering the events again changed documents');
      },
    });
    return outcome(events.length > 0 ? tenantOfStream(events[0]!.streamName) : PLATFORM_DOCS);
  };
}
