// Process managers (architecture.md, "Rules that span aggregates"): subscriptions with their own checkpoint that
// react to an event by issuing commands to other aggregates. Reactions must be idempotent (their commands derive their
// event ids from the causing event, and deciders decide nothing for a consequence already applied), so a replay after
// a crash or a lost checkpoint changes nothing.
import type { Logger } from '../logger.js';
import type { RecordedEvent, EventStore, Subscription } from '../stores/eventStore.js';
import { PLATFORM_DOCS, type Collection, type ReadDoc, type ReadStore } from '../stores/readStore.js';

export interface ProcessManager<S = unknown> {
  /** Stable name: the checkpoint's id. */
  name: string;
  /** Event types it reacts to; others only move its position. */
  eventTypes: readonly string[];
  /** Instead of `eventTypes`: the events it reacts to (e.g. every company record event, for webhooks). */
  accepts?: (event: RecordedEvent) => boolean;
  /** `false`: nothing came of it (a replay would do nothing either), so the checkpoint need not move at once. */
  react(event: RecordedEvent, services: S): Promise<void | boolean>;
}

export interface ProcessRunner {
  /** Resolves once every process manager has handled the log up to `position` (false after `timeoutMs`). */
  waitFor(position: bigint, timeoutMs?: number): Promise<boolean>;
  /** The position each process manager has handled (its lag is the head minus it: read by the metrics scrape). */
  handled(): { name: string; position: bigint }[];
  stop(): Promise<void>;
}

interface CheckpointDoc extends ReadDoc {
  position: string;
  storeId: string;
}

const CHECKPOINTS = 'process_checkpoints';
const RETRY_MS = { first: 200, max: 10_000 };
/** Events of other types passed before the checkpoint moves over them, so a start never replays the whole log. */
const SKIPPED_BEFORE_CHECKPOINT = 1_000n;
/** Saves over passed events failing this long are logged (shorter streaks are a busy store, retried at the next one). */
const SKIP_SAVES_FAILING_WARN_MS = 60_000;

interface Running {
  manager: ProcessManager<never>;
  handled: bigint;
  /** The position the stored checkpoint holds (0 when none), and the log it belongs to. */
  saved: bigint;
  storeId: string | null;
  subscription: Subscription | null;
  stopped: boolean;
  /** Saves over passed events failing since `since` (null while they succeed), and whether that streak was warned of. */
  skipSavesFailing: { since: number; warned: boolean } | null;
}

export function startProcessManagers<S>(
  /** `ready`: resolves once `services()` answers the assembled services; no reaction runs before. */
  deps: {
    events: EventStore;
    reads: ReadStore;
    logger: Logger;
    services: () => S;
    ready?: Promise<void>;
    /** How long saves over passed events may fail before a warning (SKIP_SAVES_FAILING_WARN_MS). */
    skipSavesWarnAfterMs?: number;
  },
  managers: readonly ProcessManager<S>[],
): ProcessRunner {
  const checkpointsReady = deps.reads.collection<CheckpointDoc>(CHECKPOINTS);
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((wake) => wake());
  const running: Running[] = [];

  async function resumeFrom(manager: ProcessManager<S>, storeId: string): Promise<bigint> {
    const doc = await (await checkpointsReady).get(PLATFORM_DOCS, manager.name);
    // A checkpoint of another log means nothing here: start over (reactions are idempotent).
    return doc && doc.storeId === storeId ? BigInt(doc.position) : 0n;
  }

  async function run(state: Running, manager: ProcessManager<S>): Promise<void> {
    const types = new Set(manager.eventTypes);
    const accepts = manager.accepts ?? ((event: RecordedEvent) => types.has(event.type));
    let delay = RETRY_MS.first;
    await deps.ready;
    while (!state.stopped) {
      try {
        const checkpoints = await checkpointsReady;
        const storeId = await deps.events.identity();
        state.handled = state.saved = await resumeFrom(manager, storeId);
        state.storeId = storeId;
        const save = (position: bigint) => saveCheckpoint(checkpoints, state, position);
        const subscription = deps.events.subscribe({ after: state.handled }, async (event) => {
          const acted = accepts(event) && (await manager.react(event, deps.services())) !== false;
          if (acted) await save(event.position);
          else if (event.position - state.saved >= SKIPPED_BEFORE_CHECKPOINT) await moveOverSkipped(state, save, event.position);
          state.handled = event.position;
          notify();
        });
        state.subscription = subscription;
        const error = await subscription.failed;
        if (state.stopped) return;
        deps.logger.error('process manager stopped; retrying from its checkpoint', { processManager: manager.name, error: error.message });
      } catch (err) {
        deps.logger.error('process manager could not resume; retrying', { processManager: manager.name, error: String(err) });
      }
      // A store error or a failing reaction: retry from the checkpoint with a growing delay (the event is not lost).
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, RETRY_MS.max);
    }
  }

  async function saveCheckpoint(checkpoints: Collection<CheckpointDoc>, state: Running, position: bigint): Promise<void> {
    await checkpoints.replace({ tenantId: PLATFORM_DOCS, id: state.manager.name, position: position.toString(), storeId: state.storeId! });
    state.saved = position;
  }

  /**
   * Moving the checkpoint over events it only passed saves a replay, nothing more: a failed save (SQLite busy while the
   * projector thread writes a burst, a primary stepping down) is tried again at the next one instead of stopping the
   * manager. Only a store refusing such saves for a minute is worth a warning (once per streak).
   */
  async function moveOverSkipped(state: Running, save: (position: bigint) => Promise<void>, position: bigint): Promise<void> {
    try {
      await save(position);
      state.skipSavesFailing = null;
    } catch (err) {
      const streak = (state.skipSavesFailing ??= { since: Date.now(), warned: false });
      if (streak.warned || Date.now() - streak.since < (deps.skipSavesWarnAfterMs ?? SKIP_SAVES_FAILING_WARN_MS)) return;
      streak.warned = true;
      deps.logger.warn('process manager checkpoint not moved over the events it passed for a minute; the next save moves it', {
        processManager: state.manager.name,
        error: String(err),
      });
    }
  }

  /** At stop, the checkpoint also moves over the events of other types passed since it was last saved. */
  async function keepSkipped(state: Running): Promise<void> {
    if (state.handled <= state.saved || state.storeId === null) return;
    try {
      await saveCheckpoint(await checkpointsReady, state, state.handled);
    } catch (err) {
      deps.logger.warn('process manager checkpoint not saved at stop; the next start replays from the last one', {
        processManager: state.manager.name,
        error: String(err),
      });
    }
  }

  for (const manager of managers) {
    const state: Running = {
      manager: manager,
      handled: 0n,
      saved: 0n,
      storeId: null,
      subscription: null,
      stopped: false,
      skipSavesFailing: null,
    };
    running.push(state);
    void run(state, manager);
  }

  return {
    async waitFor(position, timeoutMs = 10_000) {
      const reached = () => running.every((r) => r.handled >= position);
      if (reached()) return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), timeoutMs);
        const check = () => reached() && done(true);
        function done(result: boolean) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(result);
        }
        waiters.add(check);
      });
    },
    handled: () => running.map((r) => ({ name: r.manager.name, position: r.handled })),
    async stop() {
      for (const state of running) {
        state.stopped = true;
        await state.subscription?.stop();
        await keepSkipped(state);
      }
      notify();
    },
  };
}
