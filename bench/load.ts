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
