// autocannon runs against a process on loopback, bounded in time: the figures of one scenario.
import autocannon from 'autocannon';

export interface LoadFigures {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Of `errors`, the requests autocannon gave up on (no answer within its timeout). */
  timeouts?: number;
}

export interface LoadScenario {
  scenario: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Called for each request: returns the body (JSON string) so every request can differ. */
  body?: () => string;
  /** Called for each request: the path (and query), so requests can spread over records. */
  path?: () => string;
  connections?: number;
  durationSeconds?: number;
}

export async function runLoad(s: LoadScenario): Promise<LoadFigures> {
  const result = await autocannon({
    url: s.url,
    connections: s.connections ?? 100,
    duration: s.durationSeconds ?? 10,
    method: s.method ?? 'GET',
    headers: s.headers,
    requests:
      s.body || s.path
        ? [
            {
              setupRequest: (req: Record<string, unknown>) => ({
                ...req,
                ...(s.path ? { path: s.path() } : {}),
                ...(s.body ? { body: s.body() } : {}),
              }),
            },
          ]
        : undefined,
  } as autocannon.Options);
  return {
    scenario: s.scenario,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    timeouts: result.timeouts,
  };
}

/** One method's share of a mixed load: its answers per second over the run, 2xx latency percentiles, other answers. */
export interface MethodFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface MixedScenario {
  scenario: string;
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
  /** Called for each request: its method, path and body (each connection sends one request at a time). */
  pick: () => { method: 'GET' | 'POST'; path: string; body?: string };
}

export interface MixedFigures {
  scenario: string;
  requestsPerSecond: number;
  errors: number;
  byMethod: Record<'GET' | 'POST', MethodFigures>;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** One autocannon run whose requests choose their method each time; latencies and counts kept per method. */
export async function runMixedLoad(s: MixedScenario): Promise<MixedFigures> {
  const latencies = { GET: [] as number[], POST: [] as number[] };
  const others = { GET: 0, POST: 0 };
  const instance = autocannon({
    url: s.url,
    connections: s.connections ?? 100,
    duration: s.durationSeconds ?? 10,
    headers: s.headers,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
          const { method, path, body } = s.pick();
          context.method = method; // per connection: read back when its answer arrives (no pipelining)
          // Fresh headers: autocannon writes Content-Length into the object it was given, and a GET must not inherit it.
          return { ...req, method, path, body, headers: { ...s.headers } };
        },
      },
    ],
  } as autocannon.Options) as unknown as autocannon.Instance;
  instance.on('response', (client: unknown, status: number, _bytes: number, ms: number) => {
    const method = (client as { requestIterator: { context: { method: 'GET' | 'POST' } } }).requestIterator.context.method;
    if (status >= 200 && status < 300) latencies[method].push(ms);
    else others[method]++;
  });
  const result = await (instance as unknown as Promise<autocannon.Result>);
  const seconds = Math.max(1e-3, result.duration);
  const figures = (method: 'GET' | 'POST'): MethodFigures => {
    const sorted = latencies[method].sort((a, b) => a - b);
    return {
      requestsPerSecond: Math.round((sorted.length + others[method]) / seconds),
      p50Ms: Math.round(percentile(sorted, 50)),
      p99Ms: Math.round(percentile(sorted, 99)),
      non2xx: others[method],
    };
  };
  return {
    scenario: s.scenario,
    requestsPerSecond: Math.round(result.requests.total / seconds),
    errors: result.errors + result.timeouts,
    byMethod: { GET: figures('GET'), POST: figures('POST') },
  };
}
