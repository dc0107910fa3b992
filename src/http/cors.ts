// CORS for browser apps on the configured origins (CORS_ORIGINS): preflights answered from the route declarations.
import type Koa from 'koa';
import type { Router } from '@koa/router';
import { ProblemError } from '../problems.js';
import type { RouteDecl } from './routeTypes.js';
import { requestHeadersOf } from './validation.js';

/** Seconds a browser may keep a preflight's answer (Chromium caps it at 7200). */
export const CORS_MAX_AGE_SECONDS = 600;

// Answer headers every route may send besides those it declares (the framework's, the problem answers').
const FRAMEWORK_EXPOSED = [
  'X-Request-Id',
  'Retry-After',
  'WWW-Authenticate',
  'Idempotent-Replayed',
  'RateLimit',
  'RateLimit-Policy',
  'Link',
  'ETag',
  'traceparent',
];
// Read by every route: the correlation id and the W3C trace context a client may send.
const EVERY_ROUTE_READS = ['X-Request-Id', 'traceparent', 'tracestate', 'If-None-Match'];
// Fetch's safelisted answer headers need no exposing.
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/** The request headers a route reads, as a browser must announce them: Authorization, Content-Type and the declared ones. */
export function corsRequestHeaders(route: RouteDecl): string[] {
  return [
    ...(route.auth !== 'public' ? ['Authorization'] : []),
    ...(route.body ? ['Content-Type'] : []),
    ...Object.keys(requestHeadersOf(route)),
    ...EVERY_ROUTE_READS,
  ];
}

/** Every answer header a client may read: the framework's and those any route declares. */
export function exposedHeaders(routes: readonly RouteDecl[]): string[] {
  const names = new Map<string, string>();
  const add = (name: string) => !SAFELISTED.has(name.toLowerCase()) && names.set(name.toLowerCase(), name);
  FRAMEWORK_EXPOSED.forEach(add);
  for (const route of routes) for (const decl of Object.values(route.responses)) Object.keys(decl.headers ?? {}).forEach(add);
  return [...names.values()].sort();
}

const unique = (names: string[]): string[] => [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];

/**
 * Actual requests from an allowed origin get Access-Control-Allow-Origin (the origin echoed: bearer tokens travel in
 * a header, no cookies, so never Allow-Credentials) and the exposed headers. A preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) of a known path answers 204 with the methods and request headers its routes
 * declare; from another origin it answers 403 without any allow header (Fetch: the CORS check fails either way).
 */
export function cors(origins: readonly string[], router: Router, byRouterPath: ReadonlyMap<string, RouteDecl[]>): Koa.Middleware {
  const allowed = new Set(origins);
  const expose = exposedHeaders([...byRouterPath.values()].flat()).join(', ');
  const routesOf = (path: string): RouteDecl[] => [
    ...new Set(router.match(path, 'OPTIONS').path.flatMap((layer) => byRouterPath.get(String(layer.path)) ?? [])),
  ];

  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    ctx.vary('Origin'); // also without one: a cache must not answer a browser's request with a same-origin answer
    if (origin === '') {
      await next();
      return;
    }
    const preflight = ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '';
    if (!allowed.has(origin)) {
      if (preflight) throw new ProblemError(403, 'cors-origin-not-allowed', 'Forbidden', `Origin ${origin} is not allowed (CORS_ORIGINS)`);
      await next();
      return;
    }
    ctx.set('Access-Control-Allow-Origin', origin);
    if (!preflight) {
      ctx.set('Access-Control-Expose-Headers', expose);
      await next();
      return;
    }
    const routes = routesOf(ctx.path);
    if (routes.length === 0) {
      await next(); // the fallback's 404
      return;
    }
    const methods = unique(routes.flatMap((r) => (r.method === 'get' ? ['GET', 'HEAD'] : [r.method.toUpperCase()])));
    ctx.status = 204;
    ctx.set('Access-Control-Allow-Methods', methods.join(', '));
    ctx.set('Access-Control-Allow-Headers', unique(routes.flatMap(corsRequestHeaders)).join(', '));
    ctx.set('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
    ctx.set('Allow', [...methods, 'OPTIONS'].join(', '));
  };
}
