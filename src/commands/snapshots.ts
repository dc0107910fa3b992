// Snapshots of an aggregate's state, in a stream of their own (`<tenant>.<category>Snapshot-<id>`): every aggregate (a
// machine's uses, a product's stock, an account's sign-in failures) is loaded from its latest snapshot and the events
// after it, never folded whole, unless its decider opts out. A snapshot is only a cache of the fold: a missing,
// stale-version (another policy, fold or build of the code) or foreign one means the stream is folded whole.
import { createHash } from 'node:crypto';
import type { CommandEnvelope, DecidedEvent, Decider, SnapshotPolicy } from './decider.js';
import { codeFingerprint } from './codeFingerprint.js';
import { decodeSnapshotState, encodeSnapshotState } from './snapshotCodec.js';
import type { EventMetadata, EventStore, RecordedEvent } from '../stores/eventStore.js';
import { aggregateIdOfStream, categoryOfStream, streamName, tenantOfStream } from '../stores/eventStore.js';
import { newId } from './eventIds.js';

export const SNAPSHOT_EVENT_TYPE = 'AggregateSnapshotTaken';
export const DEFAULT_SNAPSHOT_EVERY = 100;
/** The policy of a decider that names none. */
export const DEFAULT_SNAPSHOT_POLICY: SnapshotPolicy = { version: 1 };
const SNAPSHOTS_LOOKED_AT = 3;

type Folding<S, E extends DecidedEvent> = Pick<Decider<CommandEnvelope, E, S>, 'initialState' | 'evolve'>;

/** The decider's snapshot policy (the default when it names none), or null when it opted out. */
export function snapshotPolicyOf(decider: Pick<Decider<CommandEnvelope, DecidedEvent, unknown>, 'snapshot'>): SnapshotPolicy | null {
  const policy = decider.snapshot;
  if (policy && 'never' in policy) return null;
  return policy ?? DEFAULT_SNAPSHOT_POLICY;
}

/** The state as a snapshot stores it (JSON) and a load reads it back. */
export function storedSnapshotState<S>(state: S): S {
  return decodeSnapshotState(JSON.parse(JSON.stringify(encodeSnapshotState(state)))) as S;
}

interface SnapshotData<S> {
  /** The policy's version, a fingerprint of `evolve` and the initial state, and one of the code: a changed fold never reads an old one. */
  version: string;
  /** Revision of the last event folded into `state`, and that event's id (proof it is this stream's history). */
  revision: number;
  eventId: string;
  state: S;
}

export interface LoadedAggregate<S> {
  state: S;
  /** Revision of the stream's last event (-1 for an empty stream). */
  revision: number;
  /** The events read and folded: those after the snapshot, or the whole stream without one. */
  events: RecordedEvent[];
  /** Id of the event at `revision` (null for an empty stream). */
  lastEventId: string | null;
}

export function snapshotStreamOf(stream: string): string {
  return streamName(tenantOfStream(stream), `${categoryOfStream(stream)}Snapshot`, aggregateIdOfStream(stream));
}

const fingerprints = new WeakMap<object, string>();

function versionOf<S, E extends DecidedEvent>(decider: Folding<S, E>, policy: SnapshotPolicy): string {
  let fingerprint = fingerprints.get(decider.evolve);
  if (fingerprint === undefined) {
    const source = `${decider.evolve.toString()}\u0000${JSON.stringify(decider.initialState)}`;
    fingerprint = createHash('sha256').update(source).digest('hex').slice(0, 16);
    fingerprints.set(decider.evolve, fingerprint);
  }
  return `${policy.version}:${fingerprint}:${codeFingerprint()}`;
}

export function foldEvents<S, E extends DecidedEvent>(decider: Folding<S, E>, state: S, events: RecordedEvent[]): S {
  let folded = state;
  for (const e of events) folded = decider.evolve(folded, { type: e.type, data: e.data } as unknown as E);
  return folded;
}

/** The latest usable snapshot with the events after it folded in, or null (the caller then folds the stream whole). */
export async function loadFromSnapshot<S, E extends DecidedEvent>(
  store: EventStore,
  decider: Folding<S, E>,
  stream: string,
  policy: SnapshotPolicy,
): Promise<LoadedAggregate<S> | null> {
  // The latest few: while two builds run side by side (a rolling deploy), each still finds its own latest snapshot.
  const recent = await store.readStream(snapshotStreamOf(stream), { direction: 'backwards', maxCount: SNAPSHOTS_LOOKED_AT });
  const version = versionOf(decider, policy);
  const snapshot = recent
    .filter((e) => e.type === SNAPSHOT_EVENT_TYPE)
    .map((e) => e.data as unknown as SnapshotData<S>)
    .find((d) => d.version === version && Number.isSafeInteger(d.revision) && d.revision >= 0);
  if (!snapshot) return null;
  // Read from the snapshot's own revision: the event there must be the one it was taken after.
  const events = await store.readStream(stream, { fromRevision: snapshot.revision });
  const [taken] = events;
  if (taken?.revision !== snapshot.revision || taken.id !== snapshot.eventId) return null;
  const tail = events.slice(1);
  const last = events[events.length - 1]!;
  const state = decodeSnapshotState(snapshot.state) as S;
  return { state: foldEvents(decider, state, tail), revision: last.revision, events: tail, lastEventId: last.id };
}

/** Snapshots the loaded state when the load folded `every` events or more; a failed write only leaves the next load longer. */
export async function snapshotIfDue<S, E extends DecidedEvent>(
  store: EventStore,
  decider: Folding<S, E>,
  stream: string,
  policy: SnapshotPolicy,
  loaded: LoadedAggregate<S>,
  metadata: EventMetadata,
): Promise<void> {
  if (loaded.lastEventId === null || loaded.events.length < (policy.every ?? DEFAULT_SNAPSHOT_EVERY)) return;
  try {
    const data: SnapshotData<unknown> = {
      version: versionOf(decider, policy),
      revision: loaded.revision,
      eventId: loaded.lastEventId,
      state: encodeSnapshotState(loaded.state),
    };
    const event = { id: newId(), type: SNAPSHOT_EVENT_TYPE, data: data as unknown as Record<string, unknown>, metadata };
    await store.appendToStream(snapshotStreamOf(stream), [event], { expectedRevision: 'any' });
  } catch {
    // A snapshot is a cache: without it the next load folds the tail again and takes it then (a state the codec
    // cannot hold is caught by every decider test: snapshotFoldCheck.ts).
  }
}
