// The renders that run off the event loop (issue 20 item 5): one worker pool, the per-company gate and the cache.
import type { Config } from '../config.js';
import { LIMITS } from '../limits.js';
import type { Logger } from '../logger.js';
import { CompanyGate } from './companyGate.js';
import { RenderCache } from './renderCache.js';
import { SheetRenderer } from './sheetRenderer.js';
import { WorkerPool, type PoolStats } from './workerPool.js';

export interface Renders {
  sessionSheet: SheetRenderer;
  stats(): { pool: PoolStats; gate: ReturnType<CompanyGate['stats']>; cache: ReturnType<RenderCache['stats']> };
  close(): Promise<void>;
}

// The worker entry next to this file: renderWorker.ts under tsx, renderWorker.js once compiled.
const workerScript = (): URL => new URL(`./renderWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

export function createRenders(config: Pick<Config, 'renderWorkers'>, logger: Logger): Renders {
  const limits = LIMITS.renders;
  const pool = new WorkerPool({ script: workerScript(), size: config.renderWorkers, jobTimeoutMs: limits.jobTimeoutMs, logger });
  const gate = new CompanyGate(limits);
  const cache = new RenderCache(limits.cacheMaxBytes);
  return {
    sessionSheet: new SheetRenderer(pool, gate, cache),
    stats: () => ({ pool: pool.stats(), gate: gate.stats(), cache: cache.stats() }),
    close: () => pool.close(),
  };
}
