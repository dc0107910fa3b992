// A small pool of worker threads for CPU-bound renders (issue 20 item 5): the event loop hands a job over and keeps
// serving. Workers start on first use, one job each at a time; a job over its time limit or a crashed worker is
// replaced, and only the job it held fails.
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { ProblemError } from '../problems.js';

export interface WorkerPoolOptions {
  /** The worker entry (renderWorker.ts under tsx, renderWorker.js when compiled). */
  script: URL;
  size: number;
  /** A job still running after this is abandoned (its worker terminated) and answers 503. */
  jobTimeoutMs: number;
  logger: Logger;
}

export interface PoolStats {
  size: number;
  /** Workers started (and not yet exited). */
  workers: number;
  busy: number;
  /** Jobs waiting for a free worker. */
  queued: number;
  /** Jobs finished, successful or not. */
  completed: number;
}

/** What the parent posts, and what the worker answers. */
export type JobRequest = { job: string; input: unknown };
export type JobAnswer = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; message: string };

interface Job extends JobRequest {
  resolve(bytes: Buffer): void;
  reject(err: Error): void;
}

interface Running {
  job: Job;
  timer: NodeJS.Timeout;
}

const renderUnavailable = (detail: string) =>
  new ProblemError(503, 'render-unavailable', 'Service Unavailable', detail, { 'Retry-After': '5' });

/** Under tsx (a .ts entry) the worker registers tsx itself: Node 20 does not run `--import` hooks in workers. */
function spawn(script: URL): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.href)}); })`;
  // V8 flags of the parent (--max-semi-space-size) are refused by workers.
  return new Worker(boot, { eval: true, execArgv: [] });
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Running>();
  private readonly queue: Job[] = [];
  private started = 0;
  private completed = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Runs `job` on `input` in a worker: the bytes it produced. */
  run(job: string, input: unknown): Promise<Buffer> {
    if (this.closed) return Promise.reject(renderUnavailable('The service is stopping'));
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ job, input, resolve, reject });
      this.dispatch();
    });
  }

  stats(): PoolStats {
    return {
      size: this.options.size,
      workers: this.started,
      busy: this.running.size,
      queued: this.queue.length,
      completed: this.completed,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(renderUnavailable('The service is stopping'));
    const all = [...this.idle.splice(0), ...this.running.keys()];
    await Promise.all(all.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.options.size ? this.startWorker() : null);
      if (!worker) return;
      this.assign(worker, this.queue.shift()!);
    }
  }

  private startWorker(): Worker {
    const worker = spawn(this.options.script);
    this.started++;
    worker.on('message', (answer: JobAnswer) => this.finished(worker, answer));
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`render worker exited with code ${code}`)));
    return worker;
  }

  private assign(worker: Worker, job: Job): void {
    // A busy worker keeps the process alive; an idle one does not (a stopped service exits even if close was missed).
    worker.ref();
    const timer = setTimeout(() => {
      this.options.logger.error('render job timed out: its worker is replaced', { job: job.job, timeoutMs: this.options.jobTimeoutMs });
      this.lost(worker, renderUnavailable('The render took too long; retry later'));
      void worker.terminate();
    }, this.options.jobTimeoutMs);
    this.running.set(worker, { job, timer });
    worker.postMessage({ job: job.job, input: job.input } satisfies JobRequest);
  }

  private finished(worker: Worker, answer: JobAnswer): void {
    const running = this.release(worker);
    if (!running) return;
    this.idle.push(worker);
    worker.unref();
    if (answer.ok) running.job.resolve(Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength));
    else running.job.reject(new Error(`render job ${running.job.job} failed: ${answer.message}`));
    this.dispatch();
  }

  /** A worker that errored, exited or timed out: forgotten; its job (if any) fails; a new one starts on demand. */
  private lost(worker: Worker, err: Error): void {
    const idleAt = this.idle.indexOf(worker);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    const running = this.release(worker);
    if (idleAt < 0 && !running) return; // already handled (error followed by exit)
    this.started--;
    if (running) running.job.reject(err);
    if (!this.closed) this.dispatch();
  }

  private release(worker: Worker): Running | undefined {
    const running = this.running.get(worker);
    if (!running) return undefined;
    clearTimeout(running.timer);
    this.running.delete(worker);
    this.completed++;
    return running;
  }
}
