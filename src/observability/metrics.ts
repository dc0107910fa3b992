// Prometheus metrics of the process (prom-client). Hot paths only observe numbers; everything that must be looked up
// (projection lag, queue depths) is read by collect() callbacks at scrape time, so an unscraped service pays nothing.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

// The heap just after the latest full GC: the live set a leak grows, without the sawtooth of garbage heap-used shows.
let heapUsedAfterMajorGc: number | undefined;
new PerformanceObserver((list) => {
  const kindOf = (e: unknown) => (e as { detail?: { kind?: number } }).detail?.kind;
  if (list.getEntries().some((e) => kindOf(e) === constants.NODE_PERFORMANCE_GC_MAJOR))
    heapUsedAfterMajorGc = getHeapStatistics().used_heap_size;
}).observe({ entryTypes: ['gc'] });

new Gauge({
  name: 'nodejs_heap_used_after_major_gc_bytes',
  help: 'V8 heap used read right after the latest full (mark-compact) GC: the live set (absent before the first)',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    if (heapUsedAfterMajorGc !== undefined) this.set(heapUsedAfterMajorGc);
  },
});

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, declared route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const httpInFlight = new Gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests being answered',
  registers: [metricsRegistry],
});

export const httpThrottled = new Counter({
  name: 'http_throttled_total',
  help: 'Requests refused with 429 by a limiter, by the route template whose limiter refused',
  labelNames: ['route'] as const,
  registers: [metricsRegistry],
});

const appendBatchSeconds = new Histogram({
  name: 'event_store_append_batch_seconds',
  help: 'Time to write one group-committed batch of appends (one transaction)',
  buckets: SECONDS,
  registers: [metricsRegistry],
});

const appendBatchSize = new Histogram({
  name: 'event_store_append_batch_size',
  help: 'Appends written per group-committed batch',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
  registers: [metricsRegistry],
});

const appendSeconds = new Histogram({
  name: 'event_store_append_seconds',
  help: 'Time from an append call to its durable acknowledgement',
  buckets: SECONDS,
  registers: [metricsRegistry],
});

const fsyncSeconds = new Histogram({
  name: 'event_store_fsync_seconds',
  help: 'Time of one flush of the event log to stable storage',
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const observeAppendBatch = (size: number, seconds: number): void => {
  appendBatchSize.observe(size);
  appendBatchSeconds.observe(seconds);
};
export const observeAppend = (seconds: number): void => appendSeconds.observe(seconds);
export const observeFsync = (seconds: number): void => fsyncSeconds.observe(seconds);

/** What a running service lets the scrape read (a test process may run several). */
export interface MetricsSource {
  projections(): Promise<{ name: string; lag: number; rebuild?: { done: number; total: number } }[]>;
  processManagers(): Promise<{ name: string; lag: number }[]>;
  auditQueueDepth(): number;
}

const sources = new Set<MetricsSource>();

/** Scrapes read this service's lags until the returned function is called (at shutdown). */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

new Gauge({
  name: 'projection_lag_events',
  help: 'Head position of the event log minus the checkpoint of each projection',
  labelNames: ['projection'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const source of sources) for (const p of await source.projections()) this.set({ projection: p.name }, p.lag);
  },
});

new Gauge({
  name: 'projection_rebuild_progress_ratio',
  help: 'Share of the log a running rebuild has replayed (absent when no rebuild runs)',
  labelNames: ['projection'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const source of sources)
      for (const p of await source.projections())
        if (p.rebuild) this.set({ projection: p.name }, p.rebuild.total > 0 ? p.rebuild.done / p.rebuild.total : 0);
  },
});

new Gauge({
  name: 'process_manager_lag_events',
  help: 'Head position of the event log minus the position each process manager has handled',
  labelNames: ['manager'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const source of sources) for (const m of await source.processManagers()) this.set({ manager: m.name }, m.lag);
  },
});

new Gauge({
  name: 'access_audit_queue_depth',
  help: 'Access audit entries queued and not yet written',
  registers: [metricsRegistry],
  collect() {
    let depth = 0;
    for (const source of sources) depth += source.auditQueueDepth();
    this.set(depth);
  },
});
