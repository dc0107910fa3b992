// The Koa application built from the groups' route declarations. Middleware order: correlation id ->
// error mapping -> security headers -> JSON body parsing -> router -> 405/404 fallback.
import { holdWritesWhileStarting } from './startupWriteHold.js';
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { Router } from '@koa/router';
import { rememberMatches } from './rememberedMatches.js';
import bodyParser from 'koa-bodyparser';
import type { AppServices } from '../services.js';
import type { GroupModule } from './groupModule.js';
import type { RouteDecl } from './routeTypes.js';
import { ProblemError } from '../problems.js';
import { errorMapping } from './errors.js';
import { LIMITS } from '../limits.js';
import { routeHandler, type ResponseCheck } from './routePipeline.js';
import type { Authenticate } from './routeAuth.js';
import { createIdempotencyGuard } from './idempotency.js';
import { cors } from './cors.js';
import { rateLimitHeaders } from './rateLimitHeaders.js';
import { createAccessAuditWriter, type AccessAuditWriter } from './accessAudit.js';
import { compression } from './compression.js';
import { conditionalGets } from './conditionalGets.js';
import { observeRequests } from './observeRequests.js';
import { metricsOnMainPort } from './metricsEndpoint.js';

export type { Authenticate } from './routeAuth.js';

export interface BuildAppOptions {
  groups: GroupModule[];
  authenticate: Authenticate;
  /** Shared writer (e.g. from the composition root); by default buildApp creates one. */
  accessAudit?: AccessAuditWriter;
  /**
   * What a 2xx body that does not match its declared schema does: 'enforce' answers 500 (tests catch contract
   * drift), 'log' logs it at error level and answers as the handler did (a committed write is never turned into a 500).
   */
  responseCheck?: ResponseCheck;
}

/** The Koa app plus what the composition root must close on shutdown (after the HTTP server stops). */
export type SpineApp = Koa & { accessAudit: AccessAuditWriter; close(): Promise<void> };

// Accepted client correlation ids: short and harmless in logs and headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function correlationId(): Koa.Middleware {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const id = SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.correlationId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}

function securityHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    // JSON answers never need to load anything or be framed (the docs page sets its own policy).
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    ctx.set('X-Frame-Options', 'DENY');
    // Answers carry patient data: no cache may keep them. Company reads revalidate instead (private, no-cache:
    // conditionalGets.ts); static assets set their own.
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

/**
 * Request bodies travel uncompressed (they are small JSON): any other Content-Encoding is refused before the body
 * is read, so a body that fails to decode, or decodes into a bomb, never reaches the parser (RFC 7694).
 */
/** A request whose framing carries no body (no Content-Length above 0, not chunked) is {} without reading its stream. */
function bodilessRequests(): Koa.Middleware {
  return (ctx, next) => {
    const length = ctx.req.headers['content-length'];
    // What the body parser would make of it, without a read of the empty stream (~4 % of a list's CPU).
    if (ctx.req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)) ctx.request.body = {};
    return next();
  };
}

function identityBodiesOnly(): Koa.Middleware {
  return async (ctx, next) => {
    const coding = ctx.get('Content-Encoding').trim().toLowerCase();
    if (coding !== '' && coding !== 'identity') {
      throw new ProblemError(
        415,
        'unsupported-content-encoding',
        'Unsupported Media Type',
        'Request bodies are accepted without compression only (no Content-Encoding, or identity)',
        { 'Accept-Encoding': 'identity' },
      );
    }
    await next();
  };
}

/** OpenAPI path template (/pacientes/{id}) to a path-to-regexp 8 path (/pacientes/:id). */
export function routerPath(path: string): string {
  return path
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((part) => (/^\{.+\}$/.test(part) ? `:${part.slice(1, -1)}` : part.replace(/[{}()[\]+?!*:\\]/g, '\\$&')))
    .join('');
}

const pathParamsOf = (path: string): string[] => [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);

/** Declaration mistakes stop the start instead of surfacing as odd answers. */
function checkDeclarations(groups: GroupModule[]): void {
  const seen = new Set<string>();
  const permissions = new Set(groups.flatMap((g) => g.permissions));
  for (const group of groups) {
    for (const route of group.routes) {
      const label = `${route.method.toUpperCase()} ${route.path}`;
      const id = `${route.method} ${route.path.replace(/\{[^}]+\}/g, '{}')}`;
      if (seen.has(id)) throw new Error(`route declared twice: ${label}`);
      seen.add(id);
      if (route.permission && !permissions.has(route.permission))
        throw new Error(`${label}: permission '${route.permission}' is not declared by any group`);
      if (route.permission && route.auth === 'public') throw new Error(`${label}: a public route cannot require a permission`);
      // Company permissions never open a platform operation: platform routes are for platform administrators.
      if (route.permission && route.auth === 'platform') throw new Error(`${label}: a platform route cannot take a company permission`);
      const declared = Object.keys((route.params?.properties as Record<string, unknown> | undefined) ?? {});
      for (const name of pathParamsOf(route.path))
        if (route.params && !declared.includes(name)) throw new Error(`${label}: path parameter '${name}' missing from the params schema`);
      if (!Object.keys(route.responses).some((s) => Number(s) >= 200 && Number(s) < 300))
        throw new Error(`${label}: no 2xx response declared`);
    }
  }
}

// Literal segments before parameters, so /pacientes/buscar is never taken for /pacientes/{id}.
function bySpecificity(routes: readonly RouteDecl[]): RouteDecl[] {
  const rank = (r: RouteDecl) =>
    r.path
      .split('/')
      .map((seg) => (seg.startsWith('{') ? '1' : '0'))
      .join('');
  return [...routes].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

function fallback(router: Router): Koa.Middleware {
  return async (ctx) => {
    // The router leaves `matched` with the layers whose path matched, whatever their method.
    const matched = ((ctx as unknown as { matched?: { methods: string[] }[] }).matched ?? []).flatMap((l) => l.methods);
    const allowed = [...new Set(matched)];
    if (allowed.length > 0) {
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        ctx.set('Allow', [...allowed, 'OPTIONS'].join(', '));
        return;
      }
      throw new ProblemError(
        405,
        'method-not-allowed',
        'Method Not Allowed',
        `${ctx.method} is not allowed here; allowed: ${allowed.join(', ')}`,
        { Allow: allowed.join(', ') },
      );
    }
    void router;
    throw new ProblemError(404, 'not-found', 'Not Found', `No route matches ${ctx.method} ${ctx.path}`);
  };
}

export function buildApp(services: AppServices, options: BuildAppOptions): SpineApp {
  checkDeclarations(options.groups);
  // With n trusted proxies the client is the n-th X-Forwarded-For address from the right (Koa: ips.slice(-n)[0]).
  const hops = services.config.trustProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  const router = new Router();
  const accessAudit = options.accessAudit ?? createAccessAuditWriter({ events: services.events, logger: services.logger });
  const deps = {
    services,
    authenticate: options.authenticate,
    idempotency: createIdempotencyGuard({ events: services.events, logger: services.logger, now: () => services.now() }),
    accessAudit,
    responseCheck: options.responseCheck ?? 'log',
  };
  const byRouterPath = new Map<string, RouteDecl[]>();
  for (const route of bySpecificity(options.groups.flatMap((g) => g.routes))) {
    router.register(routerPath(route.path), [route.method], routeHandler(route, deps));
    byRouterPath.set(routerPath(route.path), [...(byRouterPath.get(routerPath(route.path)) ?? []), route]);
  }
  rememberMatches(router);

  app.on('error', (err: unknown) => {
    // A client hanging up on a streamed answer (an export, the change feed's events) is how such answers end: no error.
    if ((err as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    services.logger.error('koa error outside a request answer', { error: err });
  });
  app.use(correlationId());
  app.use(observeRequests(services.logger, services.config.observability)); // trace, metrics, access log
  // Outside the error mapping, so a large problem+json is compressed too.
  app.use(compression(services.config.compressionThresholdBytes ?? 1024));
  app.use(rateLimitHeaders());
  app.use(errorMapping(services.logger));
  app.use(securityHeaders());
  if (services.config.corsOrigins.length > 0) app.use(cors(services.config.corsOrigins, router, byRouterPath));
  app.use(metricsOnMainPort(services.config.observability.metricsToken));
  app.use(holdWritesWhileStarting(services)); // 503 + Retry-After after a bounded wait while appends are held at start
  app.use(identityBodiesOnly());
  // Forms only for the routes that declare them (RFC 6749 token requests); every other route answers a form 415.
  app.use(bodilessRequests());
  app.use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: LIMITS.body.jsonLimit, formLimit: '16kb', strict: true }));
  app.use(conditionalGets());
  app.use(router.routes());
  app.use(fallback(router));

  return Object.assign(app, {
    accessAudit,
    close: () => accessAudit.close(),
  });
}
