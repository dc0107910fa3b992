// Configuration from the environment (see README). Parsed once at start; invalid values stop the start.
import os from 'node:os';
import path from 'node:path';
import { webhookSettings, type WebhookSettings } from './processes/webhooks/webhookSettings.js';
import { observabilitySettings, type ObservabilitySettings } from './observability/settings.js';
import { readStoreWatchMs } from './stores/sqliteRead/readStoreDamage.js';
import { writePrioritySettings, type WritePrioritySettings } from './writePrioritySettings.js';
import { walFlushesInFlight } from './stores/sqlite/walDurability.js';
import { readStoreCheckpointPages } from './stores/sqliteRead/walCheckpointer.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  eventStoreUrl: string | null;
  mongoUrl: string | null;
  mongoDb: string;
  /** Embedded read store when MONGO_URL is unset: 'sqlite' (a file under DATA_DIR, kept across starts) or 'memory'. */
  readStore: 'sqlite' | 'memory';
  /** READ_STORE_WATCH_MS: how often the SQLite read-model file is looked at for damage (0: only SQLite errors tell). */
  readStoreWatchMs?: number;
  /** SQLite read store's page cache in MiB (READ_STORE_CACHE_MIB, default 64): the bounded memory it fills while warming up. */
  readStoreCacheMiB?: number;
  /**
   * Where the projections run (PROJECTIONS_THREAD): 'auto' (a worker thread with the SQLite stores, else the main
   * thread), 'main', or 'worker' (a worker thread; the main thread, with a warning, where it cannot run).
   */
  projectionsThread: 'auto' | 'main' | 'worker';
  /** READ_STORE_CHECKPOINT_PAGES: > 0, the SQLite read store's WAL checkpoints run in a worker past this many pages (0: in commits). */
  readStoreCheckpointPages?: number;
  /** HS256 key; when unset it is generated once and kept in DATA_DIR. */
  jwtSecret: string | null;
  /** AES-256-GCM key (32 bytes, hex or base64) for TOTP secrets at rest; generated once into DATA_DIR when unset. */
  totpEncryptionKey?: string | null;
  bootstrap: {
    adminEmail: string | null;
    adminPassword: string | null;
    adminTotpSecret: string | null;
    companyName: string | null;
  };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** 'all' (api + projector in one process), 'api' or 'projector'. */
  role: 'all' | 'api' | 'projector';
  /** Public base URL used as JWT issuer and in otpauth URIs. */
  issuer: string;
  /**
   * Reverse proxies in front of the service (TRUST_PROXY): the client is the right-most X-Forwarded-For address
   * they did not write themselves; 0 ignores the header (what a client writes there is never believed).
   */
  trustProxyHops: number;
  /** smtp(s)://user:pass@host:port: activation tokens are also e-mailed when set. */
  smtpUrl: string | null;
  /** Sender of those e-mails. */
  mailFrom: string;
  /** Public address of the service, used in e-mailed links; the issuer when unset. */
  publicUrl: string | null;
  /** Worker threads that render PDFs off the event loop (RENDER_WORKERS); by default one per core but one, 1 to 4. */
  renderWorkers: number;
  /** Ed25519 private key (PKCS#8 PEM) signing chain checkpoints (CHAIN_SIGNING_KEY_FILE); DATA_DIR/chain-signing.key when unset. */
  chainSigningKeyFile: string | null;
  /** Seconds between signed checkpoints of every tenant's chain head (CHAIN_CHECKPOINT_INTERVAL_SECONDS, 0 = none). */
  chainCheckpointIntervalSeconds: number;
  /**
   * Origins whose browser apps may call the API (CORS_ORIGINS, a comma list of exact origins such as
   * https://app.clinic.example); none by default: no CORS headers at all.
   */
  corsOrigins: string[];
  /** Webhook deliveries: retry schedule, timeout, response cap, private targets (WEBHOOK_*). */
  webhooks: WebhookSettings;
  /** Answers from this many bytes on are gzip/brotli compressed when the client accepts it (COMPRESSION_THRESHOLD_BYTES, 1024). */
  compressionThresholdBytes?: number;
  /** Metrics, access log and tracing (METRICS_PORT, METRICS_TOKEN, ACCESS_LOG, ACCESS_LOG_SAMPLE, OTEL_EXPORTER_OTLP_ENDPOINT). */
  observability: ObservabilitySettings;
  /** Reads wait behind writes in flight, a budget per event-loop turn (WRITE_PRIORITY_READ_BUDGET_MS; 0 = off). */
  writePriority?: WritePrioritySettings;
  /** Flushes of the SQLite event log's WAL that may run at once (WAL_FLUSHES_IN_FLIGHT, 1 to 4, default 1). */
  walFlushesInFlight?: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) throw new Error(`LOG_LEVEL must be debug|info|warn|error|silent`);
  const role = (env.ROLE ?? 'all') as Config['role'];
  const readStore = (env.READ_STORE || 'sqlite') as Config['readStore'];
  if (!['sqlite', 'memory'].includes(readStore)) throw new Error('READ_STORE must be sqlite|memory');
  if (!['all', 'api', 'projector'].includes(role)) throw new Error('ROLE must be all|api|projector');
  const projectionsThread = (env.PROJECTIONS_THREAD || 'auto') as Config['projectionsThread'];
  if (!['auto', 'main', 'worker'].includes(projectionsThread)) throw new Error('PROJECTIONS_THREAD must be auto|main|worker');
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    eventStoreUrl: env.EVENTSTORE_URL || null,
    mongoUrl: env.MONGO_URL || null,
    mongoDb: env.MONGO_DB ?? 'dialysis',
    readStore,
    readStoreWatchMs: readStoreWatchMs(env.READ_STORE_WATCH_MS),
    readStoreCacheMiB: readStoreCacheMiB(env.READ_STORE_CACHE_MIB),
    projectionsThread,
    readStoreCheckpointPages: readStoreCheckpointPages(env.READ_STORE_CHECKPOINT_PAGES),
    jwtSecret: env.JWT_SECRET || null,
    totpEncryptionKey: env.TOTP_ENCRYPTION_KEY || null,
    bootstrap: {
      adminEmail: env.BOOTSTRAP_ADMIN_EMAIL || null,
      adminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || null,
      adminTotpSecret: env.BOOTSTRAP_ADMIN_TOTP_SECRET || null,
      companyName: env.BOOTSTRAP_COMPANY_NAME || null,
    },
    logLevel,
    role,
    issuer: env.PUBLIC_URL ?? 'urn:dialysis-records',
    trustProxyHops: proxyHops(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Dialysis Records <no-reply@localhost>',
    publicUrl: env.PUBLIC_URL || null,
    renderWorkers: renderWorkers(env.RENDER_WORKERS),
    chainSigningKeyFile: env.CHAIN_SIGNING_KEY_FILE ? path.resolve(env.CHAIN_SIGNING_KEY_FILE) : null,
    chainCheckpointIntervalSeconds: checkpointInterval(env.CHAIN_CHECKPOINT_INTERVAL_SECONDS),
    webhooks: webhookSettings(env),
    compressionThresholdBytes: compressionThreshold(env.COMPRESSION_THRESHOLD_BYTES),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    observability: observabilitySettings(env),
    writePriority: writePrioritySettings(env),
    walFlushesInFlight: walFlushesInFlight(env.WAL_FLUSHES_IN_FLIGHT),
  };
}

function readStoreCacheMiB(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const mib = Number(value);
  if (!Number.isInteger(mib) || mib < 1 || mib > 65_536)
    throw new Error(`READ_STORE_CACHE_MIB must be a whole number of MiB (1-65536), got ${value}`);
  return mib;
}

/** Hourly by default: a day's tampering window is at most an hour of unsigned events. */
const DEFAULT_CHECKPOINT_SECONDS = 3600;

function checkpointInterval(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_CHECKPOINT_SECONDS;
  if (!/^\d+$/.test(value))
    throw new Error(`CHAIN_CHECKPOINT_INTERVAL_SECONDS must be a number of seconds (0 = no checkpoints), got ${value}`);
  return Number(value);
}

const MAX_RENDER_WORKERS = 32;

function renderWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return Math.max(1, Math.min(4, os.availableParallelism() - 1));
  const workers = Number(value);
  if (!/^\d+$/.test(value) || workers < 1 || workers > MAX_RENDER_WORKERS) {
    throw new Error(`RENDER_WORKERS must be a number of worker threads (1-${MAX_RENDER_WORKERS}), got ${value}`);
  }
  return workers;
}

const MAX_PROXY_HOPS = 10;

function compressionThreshold(value: string | undefined): number {
  if (value === undefined || value === '') return 1024;
  if (!/^\d+$/.test(value)) throw new Error(`COMPRESSION_THRESHOLD_BYTES must be a number of bytes, got ${value}`);
  return Number(value);
}

function proxyHops(value: string | undefined): number {
  if (value === undefined || value === '' || value === 'false') return 0;
  if (value === 'true') return 1; // one reverse proxy: the common deployment, and never the left-most (client-written) address
  const hops = Number(value);
  if (!/^\d+$/.test(value) || hops > MAX_PROXY_HOPS) {
    throw new Error(`TRUST_PROXY must be the number of reverse proxies in front of the service (0-${MAX_PROXY_HOPS}), got ${value}`);
  }
  return hops;
}

/** Exact origins (scheme://host[:port]); '*' is refused: every allowed origin is named. */
function corsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    const parsed = URL.canParse(origin) ? new URL(origin) : null;
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol))
      throw new Error(`CORS_ORIGINS must be a comma list of exact origins like https://app.example (no path, no '*'), got ${origin}`);
  }
  return origins;
}
