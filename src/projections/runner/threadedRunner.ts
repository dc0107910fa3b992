// The projection runner as the main thread sees it when the projector runs in a worker thread (PROJECTIONS_THREAD=
// worker): reads go to the main thread's own connection on the collections the thread reports, read-your-writes waits
// wake on the thread's reports of its checkpoints, change stamps move with the writes it reports, and status, rebuild
// and refill are asked of it. The thread learns of new events from the durable positions sent after each append.
// A thread that dies is logged and started again from its checkpoints (the service goes on taking writes meanwhile).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Collection, ReadDoc, ReadStore } from '../../stores/readStore.js';
import type { EventStore, Subscription } from '../../stores/eventStore.js';
import type { Logger } from '../../logger.js';
import { readModelRebuilding } from '../../stores/readModelRebuilding.js';
import { releaseLease } from '../../stores/leases.js';
import { readStoreRecoveryOf } from '../../stores/sqliteRead/recoverableReadStore.js';
import { CheckpointFence } from '../../stores/sqliteRead/checkpointFence.js';
import type { Projection } from './projection.js';
import { PositionWaiters } from './positionWaiters.js';
import { switchingCollection } from './switchingCollection.js';
import { ParkedScopes } from './parkedScopes.js';
import { CollectionStamps, StampClock } from './changeStamps.js';
import { PROJECTOR_LEASE } from './projectorLease.js';
import type { ProjectionRunner, ProjectionStatus, RebuildProgress, SlotView } from './runnerTypes.js';
import type { FromProjectorThread, ProjectorThreadData, ToProjectorThread } from './threadMessages.js';

export interface ThreadedRunnerDeps {
  events: EventStore;
  reads: ReadStore;
  logger: Logger;
  dataDir: string;
  readStoreCacheMiB?: number;
}

/** The thread's entry beside this file: .ts under tsx, .js once compiled. */
const threadScript = (): URL => new URL(`./projectorThread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** What a test sees of the thread: the worker while one runs, and how many times it was started again. */
export interface ProjectionThread {
  readonly worker: Worker | null;
  readonly restarts: number;
}

const threads = new WeakMap<ProjectionRunner, ProjectionThread>();
export const projectionThreadOf = (runner: ProjectionRunner): ProjectionThread | null => threads.get(runner) ?? null;

const RESTART_MS = { first: 500, max: 30_000 };
const STOP_TIMEOUT_MS = 30_000;

interface MainSlot {
  projection: Projection;
  checkpoint: bigint;
  parked: ParkedScopes;
  refilling: boolean;
  /** Physical names and the main thread's handles on them, by logical name. */
  names: Record<string, string>;
  collections: Map<string, Collection>;
}

interface Pending {
  resolve(reply: Extract<FromProjectorThread, { type: 'reply' }>): void;
  reject(error: Error): void;
  progress?: (progress: RebuildProgress) => void;
}

/** Under tsx (a .ts entry) the thread registers tsx itself, as chainVerifications.ts does. */
function spawnWorker(script: URL, workerData: ProjectorThreadData): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(boot, { eval: true, execArgv: [], workerData });
}

export function createThreadedRunner(deps: ThreadedRunnerDeps): ProjectionRunner {
  const { events, reads, logger } = deps;
  const slots = new Map<string, MainSlot>();
  const handles = new Map<string, Collection>();
  const stamps = new Map<string, CollectionStamps>();
  const clock = new StampClock();
  const waiters = new PositionWaiters();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let started = false;
  let stopped = false;
  let worker: Worker | null = null;
  let live = false; // the running worker has reported its start
  let restarts = 0;
  let restartDelay = RESTART_MS.first;
  let storeId = '';
  let durable = 0n;
  let holder = '';
  let feed: Subscription | null = null;
  let applying: Promise<void> = Promise.resolve();
  let refillRunning = false;
  let onStarted: { resolve(): void; reject(error: Error): void } | null = null;
  let onStopped: (() => void) | null = null;

  const slotOf = (name: string): MainSlot => {
    const slot = slots.get(name);
    if (!slot) throw new Error(`unknown projection '${name}'`);
    return slot;
  };
  const send = (message: ToProjectorThread): void => worker?.postMessage(message);

  async function apply(views: SlotView[], refilled = false): Promise<void> {
    for (const view of views) {
      const slot = slots.get(view.name);
      if (!slot) continue;
      if (Object.entries(view.collections).some(([logical, name]) => slot.names[logical] !== name)) {
        const opened = new Map<string, Collection>();
        for (const [logical, name] of Object.entries(view.collections)) {
          opened.set(logical, await reads.collection(name));
          if (!stamps.has(name)) stamps.set(name, new CollectionStamps(clock));
        }
        slot.collections = opened;
        slot.names = view.collections;
      }
      // A refill asked of the thread: reports sent before it began still show the old file's checkpoints.
      if (refillRunning && !refilled) continue;
      slot.checkpoint = BigInt(view.checkpoint);
      slot.parked = ParkedScopes.from(view.parked);
      slot.refilling = view.refilling;
    }
    waiters.notify();
  }

  function touch(writes: [string, string | null][]): void {
    for (const [name, tenantId] of writes) {
      const collection = stamps.get(name);
      if (tenantId === null) collection?.touchAll();
      else collection?.touch(tenantId);
    }
  }

  function onMessage(from: Worker, message: FromProjectorThread): void {
    if (from !== worker) return;
    switch (message.type) {
      case 'log':
        return logger[message.level](message.msg, message.fields);
      case 'changed':
        touch(message.touched); // before the views: a wait woken by them reads a new stamp
        applying = applying
          .then(() => apply(message.views))
          .catch((error: unknown) => logger.error('projector thread: a report failed', { error }));
        return;
      case 'started':
        applying = applying
          .then(() => apply(message.views))
          .then(
            () => {
              live = true;
              restartDelay = RESTART_MS.first;
              onStarted?.resolve();
            },
            (error: unknown) => onStarted?.reject(error as Error),
          );
        return;
      case 'progress':
        return pending.get(message.id)?.progress?.(message.progress);
      case 'reply': {
        const request = pending.get(message.id);
        pending.delete(message.id);
        return request?.resolve(message);
      }
      case 'failed':
        logger.error('projector thread: the start failed', { error: message.error });
        return onStarted?.reject(new Error(message.error));
      case 'stopped':
        return onStopped?.();
    }
  }

  function onExit(from: Worker, code: number): void {
    if (from !== worker) return;
    worker = null;
    live = false;
    for (const request of pending.values()) request.reject(new Error('the projector thread stopped'));
    pending.clear();
    onStarted?.reject(new Error(`the projector thread exited (code ${code}) before it started`));
    if (stopped) return onStopped?.();
    // What it wrote after its last report is not in the stamps: nothing prepared before now may be served.
    for (const collection of stamps.values()) collection.touchAll();
    logger.error('projector thread died: starting it again from its checkpoints', { code, inMs: restartDelay });
    const dead = holder;
    const delay = restartDelay;
    restartDelay = Math.min(RESTART_MS.max, restartDelay * 2);
    setTimeout(() => {
      if (stopped) return;
      void releaseLease(reads, PROJECTOR_LEASE, dead) // it cannot renew it: the new thread takes it at once
        .catch(() => undefined)
        .then(() => spawn())
        .catch((error: unknown) => logger.error('projector thread: the restart failed; trying again', { error }));
    }, delay).unref();
  }

  function spawn(): Promise<void> {
    restarts += started ? 1 : 0;
    holder = `${hostname()}:${process.pid}:thread:${randomUUID().slice(0, 8)}`;
    const data: ProjectorThreadData = {
      dataDir: deps.dataDir,
      ...(deps.readStoreCacheMiB ? { readStoreCacheMiB: deps.readStoreCacheMiB } : {}),
      storeId,
      durable: durable.toString(),
      holder,
      fence: (readStoreRecoveryOf(reads)?.fence ?? new CheckpointFence()).cells,
      projections: [...slots.values()].map(({ projection }): [string, number] => [projection.name, projection.version]),
    };
    const spawned = spawnWorker(threadScript(), data);
    worker = spawned;
    spawned.on('message', (message: FromProjectorThread) => onMessage(spawned, message));
    spawned.on('error', (error) => logger.error('projector thread: uncaught error', { error }));
    spawned.on('exit', (code) => onExit(spawned, code));
    return new Promise<void>((resolve, reject) => (onStarted = { resolve, reject })).finally(() => (onStarted = null));
  }

  /** New durable events, announced to the thread once per turn of the loop (the position of the last one). */
  function feedDurable(): void {
    let announcing = false;
    feed = events.subscribe({ after: durable }, (event) => {
      durable = event.position;
      if (announcing) return;
      announcing = true;
      setImmediate(() => {
        announcing = false;
        send({ type: 'durable', position: durable.toString() });
      });
    });
    void feed.failed.then((error) => {
      if (stopped) return;
      logger.warn('projector thread: the feed of new events failed; starting it again', { error });
      setTimeout(feedDurable, 1000).unref();
    });
  }

  function request(
    message: ToProjectorThread & { id: number },
    progress?: Pending['progress'],
  ): Promise<Extract<FromProjectorThread, { type: 'reply' }>> {
    if (!worker || !live) return Promise.reject(new Error('the projector thread is starting again after a failure; try again shortly'));
    return new Promise((resolve, reject) => {
      pending.set(message.id, { resolve, reject, ...(progress ? { progress } : {}) });
      send(message);
    });
  }

  const runner: ProjectionRunner = {
    register(projection) {
      if (started) throw new Error('register projections before start()');
      if (slots.has(projection.name)) throw new Error(`projection '${projection.name}' registered twice`);
      slots.set(projection.name, {
        projection,
        checkpoint: 0n,
        parked: new ParkedScopes(),
        refilling: false,
        names: {},
        collections: new Map(),
      });
    },

    async start() {
      if (started) throw new Error('projection runner already started');
      storeId = await events.identity();
      durable = await events.headPosition();
      await spawn();
      started = true;
      feedDurable();
      logger.info('projections run in a worker thread', { projections: slots.size, position: durable.toString() });
    },

    async stop() {
      if (stopped) return;
      stopped = true;
      await feed?.stop();
      const running = worker;
      if (running) {
        const head = await events.headPosition().catch(() => durable);
        const done = new Promise<void>((resolve) => (onStopped = resolve));
        const timer = setTimeout(() => {
          logger.error('projector thread: no stop in time; terminating it');
          void running.terminate();
        }, STOP_TIMEOUT_MS);
        send({ type: 'stop', head: head.toString() });
        await done;
        clearTimeout(timer);
        await running.terminate(); // it has closed its connections and said so
      }
      waiters.cancelAll();
    },

    collection<T extends ReadDoc = ReadDoc>(projection: string, logical: string): Collection<T> {
      const key = `${projection}\u0000${logical}`;
      let handle = handles.get(key);
      if (!handle) {
        const slot = slotOf(projection);
        if (!(logical in slot.projection.collections)) throw new Error(`projection '${projection}' has no collection '${logical}'`);
        handle = switchingCollection(() => {
          if (slot.refilling) throw readModelRebuilding();
          const current = slot.collections.get(logical);
          if (!current) throw new Error(`projection '${projection}' is not started`);
          return current;
        });
        handles.set(key, handle);
      }
      return handle as unknown as Collection<T>;
    },

    waitFor(position, options = {}) {
      const { tenant } = options;
      const targets = (options.projections ?? [...slots.keys()]).map(slotOf).map((slot) => ({
        reached: (p: bigint) => slot.checkpoint >= p,
        stuck: () => stopped,
        refuses: (p: bigint) => tenant !== undefined && slot.parked.blocksTenant(tenant, p),
      }));
      return waiters.wait(position, targets, options.timeoutMs ?? 5000);
    },

    changeStamp(projection, logical, tenantId) {
      // No thread reporting its writes (stopped, or starting again): nothing may be kept.
      if (!live || stopped) return null;
      const name = slotOf(projection).names[logical];
      return name === undefined ? null : (stamps.get(name)?.of(tenantId) ?? null);
    },

    checkpointOf(name) {
      return slotOf(name).checkpoint;
    },

    async status() {
      if (live && !stopped) {
        const reply = await request({ type: 'status', id: nextId++ }).catch(() => null);
        if (reply?.status) return reply.status;
      }
      const head = await events.headPosition().catch(() => durable);
      const error = stopped ? undefined : 'the projector thread is starting again after a failure';
      return [...slots.values()].map((slot): ProjectionStatus => ({
        name: slot.projection.name,
        version: slot.projection.version,
        state: stopped ? 'stopped' : 'failed',
        checkpoint: slot.checkpoint.toString(),
        head: head.toString(),
        lag: head > slot.checkpoint ? Number(head - slot.checkpoint) : 0,
        ...(error ? { error } : {}),
        parked: slot.parked.list(),
      }));
    },

    async refill(first = []) {
      if (!started || stopped) return;
      for (const slot of slots.values()) {
        slot.refilling = true; // at once: the reads of the emptied store answer 503 from here on
        slot.checkpoint = 0n;
      }
      waiters.notify();
      // A thread starting again meanwhile opens the fresh file itself and fills it from the log.
      if (!worker || !live) return;
      refillRunning = true;
      try {
        const reply = await request({ type: 'refill', id: nextId++, first });
        refillRunning = false;
        await (applying = applying.then(() => apply(reply.views ?? [], true)));
        if (reply.error) throw new Error(reply.error);
      } finally {
        refillRunning = false;
      }
    },

    async rebuild(name, onProgress) {
      slotOf(name);
      if (!started) throw new Error('start the projection runner before a rebuild');
      const reply = await request({ type: 'rebuild', id: nextId++, name }, onProgress);
      if (reply.error) throw new Error(reply.error);
      await applying; // the switch to the rebuilt collections, reported before the answer, is applied
    },
  };
  threads.set(runner, {
    get worker() {
      return worker;
    },
    get restarts() {
      return restarts;
    },
  });
  return runner;
}
