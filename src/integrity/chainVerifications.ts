// Verifications of a tenant's hash chain, each in its own worker thread (the event loop keeps serving): started
// by POST, followed by GET (checked count, total, state) until intact or broken at a named event.
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { BrokenLink } from '../stores/chain/hashChain.js';
import { sqliteEventFile } from '../stores/openEventStore.js';
import type { VerifyJob, VerifyMessage } from './chainVerifyWorker.js';

export interface ChainVerification {
  id: string;
  tenant: string;
  state: 'running' | 'intact' | 'broken' | 'failed';
  checked: number;
  total: number;
  startedAt: string;
  finishedAt: string | null;
  requestedBy: string;
  /** The first event whose stored hash is not the one recomputed from the chain before it. */
  brokenLink?: BrokenLink;
  /** The chain head the verification recomputed (intact chains). */
  headHash?: string | null;
  error?: string;
}

export interface ChainVerifications {
  /** Starts a verification of the tenant's chain, or answers the one already running for it. */
  start(tenant: string, requestedBy: string): ChainVerification;
  get(tenant: string, id: string): ChainVerification | null;
  close(): Promise<void>;
}

/** Finished verifications kept per tenant for GET (in memory: a restart forgets them). */
const KEPT_PER_TENANT = 20;

const workerScript = (): URL => new URL(`./chainVerifyWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Under tsx (a .ts entry) the worker registers tsx itself: Node 20 does not run `--import` hooks in workers. */
function spawn(job: VerifyJob): Worker {
  const script = workerScript();
  if (!script.pathname.endsWith('.ts')) return new Worker(script, { workerData: job });
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(boot, { eval: true, execArgv: [], workerData: job });
}

export function createChainVerifications(deps: {
  config: Pick<Config, 'dataDir' | 'eventStoreUrl'>;
  logger: Logger;
  now: () => Date;
}): ChainVerifications {
  const byTenant = new Map<string, ChainVerification[]>();
  const workers = new Set<Worker>();
  let closing = false;

  function finish(v: ChainVerification, message: Extract<VerifyMessage, { type: 'done' | 'failed' }>): void {
    if (v.state !== 'running') return;
    v.finishedAt = deps.now().toISOString();
    if (message.type === 'failed') {
      Object.assign(v, { state: 'failed', error: closing ? 'the service stopped before the verification finished' : message.message });
      if (!closing) deps.logger.error('chain verification failed', { tenant: v.tenant, id: v.id, error: message.message });
      return;
    }
    Object.assign(v, { checked: message.checked, total: message.total });
    if (message.broken) {
      Object.assign(v, { state: 'broken', brokenLink: message.broken });
      deps.logger.warn('hash chain broken', { tenant: v.tenant, id: v.id, ...message.broken });
    } else Object.assign(v, { state: 'intact', headHash: message.head });
  }

  return {
    start(tenant, requestedBy) {
      const kept = byTenant.get(tenant) ?? [];
      const running = kept.find((v) => v.state === 'running');
      if (running) return running;
      const v: ChainVerification = {
        id: randomUUID(),
        tenant,
        state: 'running',
        checked: 0,
        total: 0,
        startedAt: deps.now().toISOString(),
        finishedAt: null,
        requestedBy,
      };
      byTenant.set(tenant, [v, ...kept].slice(0, KEPT_PER_TENANT));
      const { eventStoreUrl, dataDir } = deps.config;
      const job: VerifyJob = eventStoreUrl
        ? { kind: 'eventstoredb', url: eventStoreUrl, tenant }
        : { kind: 'sqlite', file: sqliteEventFile(dataDir), tenant };
      const worker = spawn(job);
      workers.add(worker);
      worker.on('message', (m: VerifyMessage) => {
        if (m.type === 'progress') Object.assign(v, { checked: m.checked, total: m.total });
        else finish(v, m);
      });
      worker.on('error', (err) => finish(v, { type: 'failed', message: err.message }));
      worker.on('exit', () => {
        workers.delete(worker);
        finish(v, { type: 'failed', message: 'the verification worker stopped before it finished' });
      });
      return v;
    },
    get: (tenant, id) => byTenant.get(tenant)?.find((v) => v.id === id) ?? null,
    async close() {
      closing = true;
      await Promise.all([...workers].map((w) => w.terminate()));
    },
  };
}
