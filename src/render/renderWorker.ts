// The entry of a render worker thread (workerPool.ts): runs one job at a time and answers its bytes, transferred.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderSessionSheet, type SessionSheet } from '../queries/dialisis/sessionSheet/renderSessionSheet.js';
import type { JobAnswer, JobRequest } from './workerPool.js';
import { RENDER_JOBS } from './renderJobs.js';

const jobs: Record<string, (input: unknown) => Promise<Buffer>> = {
  [RENDER_JOBS.sessionSheet]: (input) => renderSessionSheet(input as SessionSheet),
};

/**
 * Linux: this thread yields the CPU to the event loop (nice 5 for this thread only: /proc/thread-self names it). Threads of
 * one process share the CPU of their scheduling group, so a busy worker would otherwise delay the event loop by tens of ms.
 */
function yieldToEventLoop(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 5);
  } catch {
    // Not Linux, or not allowed: the renders still run off the event loop, at the same priority.
  }
}

async function answer(request: JobRequest): Promise<JobAnswer> {
  const job = jobs[request.job];
  if (!job) return { ok: false, message: `unknown job ${request.job}` };
  try {
    // A copy of exactly the bytes, so that its whole buffer can be transferred (pdfkit's may be pooled).
    return { ok: true, bytes: new Uint8Array(await job(request.input)) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

yieldToEventLoop();
parentPort!.on('message', (request: JobRequest) => {
  void answer(request).then((result) => parentPort!.postMessage(result, result.ok ? [result.bytes.buffer] : []));
});
