// What a running service adds for its operators at start: the lags its scrapes read, the private metrics port and
// the OTLP exporter (each only when configured). The returned close() undoes them at shutdown.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppServices } from '../services.js';
import { addMetricsSource, metricsRegistry, METRICS_PATH } from './metrics.js';
import { startTracing, stopTracing } from './tracing.js';

export interface ServiceObservability {
  /** The metrics port actually bound (METRICS_PORT=0 picks a free one), null when none. */
  metricsPort: number | null;
  close(): Promise<void>;
}

/** A listener answering only GET /metrics, for a port the operator keeps private (no token there). */
export function metricsListener(): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metricsRegistry.contentType, 'Cache-Control': 'no-store' }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics failed\n'),
    );
  };
}

export async function startObservability(services: AppServices, auditQueueDepth: () => number): Promise<ServiceObservability> {
  const settings = services.config.observability;
  const removeSource = addMetricsSource({
    projections: async () =>
      (await services.projections.status()).map((p) => ({ name: p.name, lag: p.lag, ...(p.rebuild ? { rebuild: p.rebuild } : {}) })),
    processManagers: async () => {
      const head = await services.events.headPosition();
      return services.processes.handled().map((m) => ({ name: m.name, lag: Math.max(0, Number(head - m.position)) }));
    },
    auditQueueDepth,
  });
  if (settings.otlpEndpoint) await startTracing(settings.otlpEndpoint);
  let server: http.Server | null = null;
  if (settings.metricsPort !== null) {
    server = http.createServer(metricsListener());
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(settings.metricsPort!, services.config.host, () => resolve());
    });
  }
  return {
    metricsPort: server ? (server.address() as AddressInfo).port : null,
    async close() {
      removeSource();
      const metrics = server;
      if (metrics) await new Promise<void>((resolve) => metrics.close(() => resolve()));
      if (settings.otlpEndpoint) await stopTracing();
    },
  };
}
