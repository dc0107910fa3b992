// The projection runner as the main thread sees it when the projector runs in a worker thread (PROJECTIONS_THREAD=auto|
// worker): reads go to the main thread's own connection on the collections the thread reports, read-your-writes waits
// wake on the thread's reports of its checkpoints, change stamps move with the writes it reports, and status, rebuild
// and refill are asked of it. The thread learns of new events from the durable positions sent after each append.
// A thread that dies is logged and started again from its checkpoints (the service goes on taking writes meanwhile).
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { ReadStore } from '../../stores/readStore.js';
import { EventStoreUnusableError, type EventStore, type Subscription } from '../../stores/eventStore.js';
import type { Logger } from '../../logger.js';
import { releaseLease } from '../../stores/leases.js';
import { readStoreRecoveryOf } from '../../stores/sqliteRead/recoverableReadStore.js';
import { CheckpointFence } from '../../stores/sqliteRead/checkpointFence.js';
import { PROJECTOR_LEASE } from './projectorLease.js';
import type { ProjectionRunner, RebuildProgress } from './runnerTypes.js';
import { ThreadedSlots } from './threadedSlots.js';
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
/** A status the thread does not give in this time is answered from the last reports (the thread looks stuck). */
const STATUS_TIMEOUT_MS = 5_000;

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
  const slots = new ThreadedSlots(reads);
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
  let onStarted: { resolve(): void; reject(error: Error): void } | null = null;
  let onStopped: (() => void) | null = null;
  let refillInFlight = false;

  const send = (message: ToProjectorThread): void => worker?.postMessage(message);

  function onMessage(from: Worker, message: FromProjectorThread): void {
    if (from !== worker) return;
    switch (message.type) {
      case 'log':
        return logger[message.level](message.msg, message.fields);
      case 'changed':
        slots.touch(message.touched); // before the views: a wait woken by them reads a new stamp
        applying = applying
          .then(() => slots.apply(message.views))
          .catch((error: unknown) => logger.error('projector thread: a report failed', { error }));
        return;
      case 'started':
        applying = applying
          .then(() => slots.apply(message.views))
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
        return onStarted?.reject(message.unusable ? new EventStoreUnusableError(message.error) : new Error(message.error));
      case 'stopped':
        return onStopped?.();
      case 'damage':
        // During a refill the thread may still write the file set aside: what it meets there is that file's damage.
        if (!refillInFlight) readStoreRecoveryOf(reads)?.report(message.reason);
        return;
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
    if (!started) return; // the first start failed: the service does not start (start() rejected)
    // What it wrote after its last report is not in the stamps: nothing prepared before now may be served.
    slots.touchAll();
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
      projections: slots.registered(),
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
      slots.register(projection);
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
      slots.waiters.cancelAll();
    },

    collection: (projection, logical) => slots.collection(projection, logical),

    waitFor: (position, options = {}) => slots.waitFor(position, options, () => stopped),

    changeStamp(projection, logical, tenantId) {
      // No thread reporting its writes (stopped, or starting again): nothing may be kept.
      return !live || stopped ? null : slots.changeStamp(projection, logical, tenantId);
    },

    checkpointOf(name) {
      return slots.slotOf(name).checkpoint;
    },

    async status() {
      if (live && !stopped) {
        const id = nextId++;
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), STATUS_TIMEOUT_MS)));
        const reply = await Promise.race([request({ type: 'status', id }).catch(() => null), late]);
        clearTimeout(timer);
        pending.delete(id);
        if (reply?.status) return reply.status;
      }
      return slots.statusWithoutThread(await events.headPosition().catch(() => durable), stopped);
    },

    async refill(first = []) {
      if (!started || stopped) return;
      slots.startRefill(); // at once: the reads of the emptied store answer 503 from here on
      // A thread starting again meanwhile opens the fresh file itself and fills it from the log.
      if (!worker || !live) return;
      slots.refillAsked = true;
      refillInFlight = true;
      try {
        const reply = await request({ type: 'refill', id: nextId++, first });
        slots.refillAsked = false;
        await (applying = applying.then(() => slots.apply(reply.views ?? [])));
        if (reply.error) throw new Error(reply.error);
      } finally {
        slots.refillAsked = false;
        refillInFlight = false;
      }
    },

    async rebuild(name, onProgress) {
      slots.slotOf(name);
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
