// GET /metrics (Prometheus text format): on its own port (METRICS_PORT) and/or on the main port behind a bearer token
// (METRICS_TOKEN). Neither is on by default: the figures name routes and volumes, not for the public.
import { timingSafeEqual, createHash } from 'node:crypto';
import type Koa from 'koa';
import { metricsRegistry, METRICS_PATH } from '../observability/metrics.js';
import { ProblemError } from '../problems.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** On the main port: 404 as any unknown path without METRICS_TOKEN; with it, 401 unless the bearer token matches. */
export function metricsOnMainPort(token: string | null): Koa.Middleware {
  const expected = token ? digest(token) : null;
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH || expected === null) {
      await next();
      return;
    }
    ctx.state.route = METRICS_PATH;
    const given = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1] ?? '';
    if (!timingSafeEqual(digest(given), expected)) {
      throw new ProblemError(401, 'unauthorized', 'Unauthorized', 'GET /metrics needs the metrics bearer token', {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new ProblemError(405, 'method-not-allowed', 'Method Not Allowed', `${ctx.method} is not allowed here; allowed: GET`, {
        Allow: 'GET',
      });
    ctx.body = await metricsRegistry.metrics();
    ctx.type = metricsRegistry.contentType;
  };
}
