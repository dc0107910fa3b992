// What metrics, the access log and tracing cost on the bench's registration and list: the same service started three
// ways in one run (access log off; one JSON line per request to a file; that plus OTLP spans to a local receiver),
// each measured `reps` times in alternating order, with the service's own CPU time per request; and the metrics' per-request
// work timed in-process (they are always recorded).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { cpuSecondsOf, startService } from './processes.js';
import { signInAndSelect } from './signIn.js';
import { patientBody, type BenchCredentials } from './http.js';
import { httpDuration, httpInFlight } from '../src/observability/metrics.js';
import { createLogger } from '../src/logger.js';

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

interface Variant {
  name: string;
  env: Record<string, string>;
  logToFile: boolean;
}

export interface ObservedScenario extends LoadFigures {
  variant: string;
  cpuMicrosPerRequest: number;
}

export interface ObservabilityFigures {
  runs: ObservedScenario[];
  medians: { variant: string; registerPerSecond: number; registerCpuUs: number; listPerSecond: number; listCpuUs: number }[];
  metricsNanosPerRequest: number;
  accessLineNanos: number;
  accessLogBytesPerRequest: number;
  spansExported: number;
}

/** An OTLP/HTTP receiver that accepts every export: the spans' cost is the service's, not a collector's. */
async function startSpanSink(port: number): Promise<{ close: () => Promise<void>; exports: () => number }> {
  let exports = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { close: () => new Promise((resolve) => server.close(() => resolve())), exports: () => exports };
}

/** ns of the request metrics' work (in-flight up and down, one histogram observation) over a spread of routes. */
function metricsNanosPerRequest(): number {
  const routes = Array.from({ length: 40 }, (_, i) => `/bench/route-${i}/{id}`);
  const rounds = 1_000_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    httpInFlight.inc();
    httpInFlight.dec();
    httpDuration.observe({ method: 'GET', route: routes[i % routes.length]!, status: '200' }, 0.003);
  }
  return Math.round(Number(process.hrtime.bigint() - started) / rounds);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Math.round(Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!);
};

/** ns of one access line as the service writes it (the logger's JSON, one write to a file as stdout). */
function accessLineNanos(file: string): number {
  const fd = fs.openSync(file, 'w');
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string) => fs.writeSync(fd, chunk) > 0;
  const logger = createLogger('info');
  const rounds = 200_000;
  const started = process.hrtime.bigint();
  try {
    for (let i = 0; i < rounds; i++) {
      logger.info('access', {
        method: 'GET',
        route: '/pacientes',
        status: 200,
        durationMs: 3.141,
        bytes: 18_329,
        tenantId: '9d9e1e5ffcfb4eeaba5cb26464753b4f',
        actor: '67285b3a-6f90-4fdc-a7c4-e4c33dcf85de',
        correlationId: '6606f3c2-906c-4b3b-86b3-b5d4eb7a7cf4',
        traceId: 'f9417f7361c9c0e489cb4ea15c1b40f1',
        queryNames: ['limit'],
        ip: '127.0.0.1',
      });
    }
    return Math.round(Number(process.hrtime.bigint() - started) / rounds);
  } finally {
    process.stdout.write = stdoutWrite;
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
}

export async function benchObservability(
  scratch: string,
  ports: { service: number; sink: number },
  env: Record<string, string>,
  creds: BenchCredentials,
  seconds: number,
  reps = 2,
): Promise<ObservabilityFigures> {
  const sink = await startSpanSink(ports.sink);
  const variants: Variant[] = [
    { name: 'access log off', env: { ACCESS_LOG: 'off' }, logToFile: false },
    { name: 'access log (info, to a file)', env: { ACCESS_LOG: 'all', LOG_LEVEL: 'info' }, logToFile: true },
    {
      name: 'access log + OTLP spans',
      env: { ACCESS_LOG: 'all', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${ports.sink}` },
      logToFile: true,
    },
  ];
  const runs: ObservedScenario[] = [];
  let logBytes = 0;
  let loggedRequests = 0;
  try {
    const orders = Array.from({ length: reps }, (_, rep) => (rep % 2 === 0 ? variants : [...variants].reverse()));
    for (const order of orders) {
      for (const variant of order) {
        const dataDir = path.join(scratch, 'observability');
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.mkdirSync(dataDir, { recursive: true });
        const logFile = path.join(dataDir, 'stdout.log');
        const fd = variant.logToFile ? fs.openSync(logFile, 'w') : 'ignore';
        const service = await startService({ ...env, ...variant.env, METRICS_TOKEN, DATA_DIR: dataDir }, ports.service, [], 300_000, fd);
        try {
          const token = await signInAndSelect(service.url, creds.email, creds.password, creds.totpSecret);
          const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
          for (let i = 0; i < 1000; i += 50) {
            await Promise.all(
              Array.from({ length: 50 }, (_, k) =>
                fetch(`${service.url}/pacientes`, { method: 'POST', headers: auth, body: patientBody(i + k, '5') }).then((r) => {
                  if (r.status !== 201) throw new Error(`seeding answered ${r.status}`);
                }),
              ),
            );
          }
          // Prometheus scrapes while the load runs, as it would in production.
          const scrape = setInterval(() => {
            fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
              .then((r) => r.text())
              .catch((err: unknown) => console.error('metrics scrape failed', err));
          }, 5000);
          const sizeBefore = variant.logToFile ? fs.statSync(logFile).size : 0;
          let n = 100_000;
          const measured = async (scenario: Omit<Parameters<typeof runLoad>[0], 'durationSeconds'>): Promise<void> => {
            const cpuBefore = cpuSecondsOf(service.child.pid!);
            const figures = await runLoad({ ...scenario, durationSeconds: seconds });
            const requests = figures.requestsPerSecond * seconds;
            const cpuMicrosPerRequest = Math.round(((cpuSecondsOf(service.child.pid!) - cpuBefore) * 1e6) / Math.max(1, requests));
            runs.push({ ...figures, variant: variant.name, cpuMicrosPerRequest });
            loggedRequests += variant.logToFile ? requests : 0;
          };
          const register = { scenario: 'POST /pacientes', url: `${service.url}/pacientes`, method: 'POST' as const, headers: auth };
          await measured({ ...register, body: () => patientBody(n++, '5') });
          await measured({ scenario: 'GET /pacientes?limit=50', url: `${service.url}/pacientes?limit=50`, headers: auth });
          clearInterval(scrape);
          if (variant.logToFile) logBytes += fs.statSync(logFile).size - sizeBefore;
        } finally {
          await service.stop();
          if (typeof fd === 'number') fs.closeSync(fd);
        }
      }
    }
  } finally {
    await sink.close();
  }
  const medians = variants.map((v) => {
    const of = (scenario: string) => runs.filter((r) => r.variant === v.name && r.scenario === scenario);
    const register = of('POST /pacientes');
    const list = of('GET /pacientes?limit=50');
    return {
      variant: v.name,
      registerPerSecond: median(register.map((r) => r.requestsPerSecond)),
      registerCpuUs: median(register.map((r) => r.cpuMicrosPerRequest)),
      listPerSecond: median(list.map((r) => r.requestsPerSecond)),
      listCpuUs: median(list.map((r) => r.cpuMicrosPerRequest)),
    };
  });
  return {
    runs,
    medians,
    metricsNanosPerRequest: metricsNanosPerRequest(),
    accessLineNanos: accessLineNanos(path.join(scratch, 'access-lines.log')),
    accessLogBytesPerRequest: Math.round(logBytes / Math.max(1, loggedRequests)),
    spansExported: sink.exports(),
  };
}
