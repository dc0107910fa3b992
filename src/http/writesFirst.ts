// Writes never starve behind cheap reads (issue 29): while a write is in flight, reads wait in a queue handled once
// per event-loop turn for at most a time budget, so the write's next steps (its group commit, the fsync's completion,
// the projection flush its answer waits for) get the loop every few ms instead of after every read that is ready.
import type http from 'node:http';
import type { WritePrioritySettings } from '../writePrioritySettings.js';

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

const READS = new Set(['GET', 'HEAD']);
/** When a read joined the queue (hrtime ns): its duration in metrics and the access log counts its wait. */
export const QUEUED_SINCE = Symbol('queuedSince');
export type QueuedRequest = http.IncomingMessage & { [QUEUED_SINCE]?: bigint };
/** Neither read nor write: answered at once and never counted (CORS preflights). */
const NEUTRAL = new Set(['OPTIONS']);

/**
 * Wraps the request handler: writes (any method but GET, HEAD, OPTIONS) are handled at once and counted until their
 * answer ends; a read arriving while one is in flight (or while earlier reads still wait) joins the queue. The queue
 * is drained in a setImmediate callback: at least one read per turn, more while the budget lasts, all of them once no
 * write is in flight. The promise returned settles when the request's handling does (a graceful stop waits for it).
 */
export function writesFirst(handle: RequestHandler, settings: WritePrioritySettings): RequestHandler {
  const budgetMs = settings.readBudgetMs;
  if (budgetMs <= 0) return handle;
  let writes = 0;
  /** Reads waiting, each started by calling it; its promise settles when its handling ends. */
  const waiting: (() => Promise<void>)[] = [];
  let draining = false;
  let turn = 0;

  // Once per turn while reads wait: one read at a time, the next when the previous one's handling has settled (its
  // awaits run in microtasks: a budget counted between calls alone would start them all), until the budget is spent.
  // A read that waits on I/O stops this turn's chain; the next turn starts a new one.
  const drain = (): void => {
    const mine = ++turn;
    const until = performance.now() + budgetMs;
    const next = (): void => {
      if (mine !== turn || waiting.length === 0) return;
      if (writes > 0 && performance.now() >= until) return;
      waiting.shift()!().then(next, next);
    };
    next();
    if (waiting.length > 0) setImmediate(drain);
    else draining = false;
  };

  return (req, res) => {
    const method = req.method ?? '';
    if (READS.has(method)) {
      if (writes === 0 && waiting.length === 0) return handle(req, res);
      (req as QueuedRequest)[QUEUED_SINCE] = process.hrtime.bigint();
      return new Promise<void>((resolve) => {
        waiting.push(() => {
          let handled;
          try {
            handled = handle(req, res);
          } catch (error) {
            resolve();
            queueMicrotask(() => {
              throw error; // reported as an uncaught error, as a throw of the handler called at once would be
            });
          }
          return Promise.resolve(handled).finally(resolve);
        });
        if (!draining) {
          draining = true;
          setImmediate(drain);
        }
      });
    }
    if (!NEUTRAL.has(method)) {
      writes++;
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        writes--;
      };
      res.once('finish', end);
      res.once('close', end);
    }
    return handle(req, res);
  };
}
