// Per request: its W3C trace (continued or new, answered in traceparent), its span when tracing is on, the request
// metrics and one access log line. Never a body, a query value, a header value or a token in the line.
import { Stream } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from '../logger.js';
import type { Principal } from '../auth/principal.js';
import type { ObservabilitySettings } from '../observability/settings.js';
import { httpDuration, httpInFlight, httpThrottled } from '../observability/metrics.js';
import { formatTraceparent, traceFromHeaders } from '../observability/traceContext.js';
import { startRequestSpan } from '../observability/tracing.js';
import { QUEUED_SINCE, type QueuedRequest } from './writesFirst.js';
import type { AnsweredProblem } from './errors.js';

/** The declared path template of the route that answered (set by the route pipeline); unmatched paths share one label. */
export const UNMATCHED_ROUTE = '(unmatched)';

type Settings = Pick<ObservabilitySettings, 'accessLog' | 'accessLogSample'>;

/** Whether a request's access line is written: 4xx and 5xx always (unless off), successes as sampled. */
export function accessLogged(settings: Settings, status: number, draw: () => number = Math.random): boolean {
  if (settings.accessLog === 'off') return false;
  if (status >= 400) return true; // errors are always logged, whatever the sampling
  if (settings.accessLog === 'errors') return false;
  return settings.accessLogSample >= 1 || draw() < settings.accessLogSample;
}

const actorOf = (principal: Principal | undefined): string | null =>
  principal ? (principal.clientId ? `client:${principal.clientId}` : principal.userId) : null;

export function observeRequests(logger: Logger, settings: Settings): Koa.Middleware {
  return async (ctx, next) => {
    const handled = process.hrtime.bigint();
    // A read held behind writes (writesFirst) is timed from its arrival: the wait is part of what its client saw.
    const started = (ctx.req as QueuedRequest)[QUEUED_SINCE] ?? handled;
    const fromHeaders = traceFromHeaders(ctx.get('traceparent') || undefined, ctx.get('tracestate') || undefined);
    const spanned = startRequestSpan(ctx.method, fromHeaders, { 'http.request.method': ctx.method });
    const trace = spanned?.trace ?? fromHeaders;
    ctx.state.trace = trace;
    ctx.set('traceparent', formatTraceparent(trace));
    if (trace.tracestate) ctx.set('tracestate', trace.tracestate);
    httpInFlight.inc();
    const finish = (): void => {
      httpInFlight.dec();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx.state.route as string | undefined) ?? UNMATCHED_ROUTE;
      const status = ctx.status;
      httpDuration.observe({ method: ctx.method, route, status: String(status) }, seconds);
      if (status === 429) httpThrottled.inc({ route });
      if (spanned) {
        spanned.span.updateName(`${ctx.method} ${route}`);
        spanned.span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
        if (status >= 500) spanned.span.setStatus({ code: 2 });
        spanned.span.end();
      }
      if (!accessLogged(settings, status)) return;
      const principal = ctx.state.principal as Principal | undefined;
      const problem = ctx.state.problem as AnsweredProblem | undefined;
      const length = Number(ctx.res.getHeader('content-length'));
      const line = {
        method: ctx.method,
        route,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        ...(started === handled ? {} : { queuedMs: Math.round(Number(handled - started) / 1e3) / 1e3 }),
        bytes: Number.isFinite(length) ? length : null,
        tenantId: principal?.tenantId ?? null,
        actor: actorOf(principal),
        correlationId: (ctx.state.correlationId as string | undefined) ?? null,
        traceId: trace.traceId,
        // Names only: a value may hold a patient's name or document number.
        queryNames: Object.keys(ctx.query),
        // Operational data (who connects), not patient data: kept for abuse and incident work.
        ip: ctx.ip,
        ...(problem ? { problem: problem.code } : {}),
      };
      // Error only for a fault: a 503 the code chose (not ready yet, a read model rebuilding) is a refusal, like a 4xx.
      if (status >= 500 && (problem?.fault ?? true)) logger.error('access', line);
      else if (status >= 400) logger.warn('access', line);
      else logger.info('access', line);
    };
    try {
      await next();
    } finally {
      // A streamed answer (an export, the change feed) is measured when it closes, finished or broken off; any other
      // once the handlers are done (a 'close' listener on every response costs more than the rest of this together).
      if (ctx.body instanceof Stream) ctx.res.once('close', finish);
      else finish();
    }
  };
}
