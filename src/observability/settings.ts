// Settings of metrics, the access log and tracing (METRICS_*, ACCESS_LOG*, OTEL_EXPORTER_OTLP_ENDPOINT): see README.
export interface ObservabilitySettings {
  /** A separate port serving only GET /metrics (METRICS_PORT); null: none. */
  metricsPort: number | null;
  /** Bearer token opening GET /metrics on the main port (METRICS_TOKEN, at least 16 characters); null: not served there. */
  metricsToken: string | null;
  /** ACCESS_LOG: one JSON line per request ('all'), only 4xx/5xx ('errors'), or none ('off'). */
  accessLog: 'off' | 'all' | 'errors';
  /** ACCESS_LOG_SAMPLE: share of successful requests logged (0..1); 4xx and 5xx are always logged. */
  accessLogSample: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: OTLP/HTTP base URL; spans are exported only when set. */
  otlpEndpoint: string | null;
}

export function observabilitySettings(env: NodeJS.ProcessEnv): ObservabilitySettings {
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : null;
  if (metricsPort !== null && (!/^\d+$/.test(env.METRICS_PORT!) || metricsPort > 65535))
    throw new Error(`METRICS_PORT must be a port number, got ${env.METRICS_PORT}`);
  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken !== null && metricsToken.length < 16) throw new Error('METRICS_TOKEN must have at least 16 characters');
  const accessLog = (env.ACCESS_LOG || 'all') as ObservabilitySettings['accessLog'];
  if (!['off', 'all', 'errors'].includes(accessLog)) throw new Error(`ACCESS_LOG must be off|all|errors, got ${env.ACCESS_LOG}`);
  const sample = env.ACCESS_LOG_SAMPLE === undefined || env.ACCESS_LOG_SAMPLE === '' ? 1 : Number(env.ACCESS_LOG_SAMPLE);
  if (!Number.isFinite(sample) || sample < 0 || sample > 1)
    throw new Error(`ACCESS_LOG_SAMPLE must be a number from 0 to 1, got ${env.ACCESS_LOG_SAMPLE}`);
  return { metricsPort, metricsToken, accessLog, accessLogSample: sample, otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || null };
}
