// Conditional GETs (RFC 9110 13.1.2): a JSON answer or a reusable body gets a strong ETag of its bytes (a record keeps
// its weak W/"<revision>"), and a GET whose If-None-Match names it answers 304 without a body. The route has answered
// (and the access audit recorded the read) before: a 304 is a read served. Cache-Control for what routes answer too.
import type Koa from 'koa';
import type { HttpResult, RouteDecl } from './routeTypes.js';
import type { NotModified } from './compression.js';
import { isReusable, strongEtagOf } from './reusableBodies.js';

const isJson = (type: string): boolean => /[/+]json$/i.test(type);

/** The opaque part of an entity tag, for the weak comparison a GET uses; a coding suffix (see compression.ts) dropped. */
const opaque = (tag: string): string =>
  tag
    .trim()
    .replace(/^W\//, '')
    .replace(/-(?:br|gzip)"$/, '"');

/** Whether If-None-Match names the answer's ETag (weak comparison, RFC 9110 8.8.3.2), or is `*`. */
export function noneMatchHits(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const mine = opaque(etag);
  return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === mine);
}

export function conditionalGets(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
    const body: unknown = ctx.body;
    let etag = ctx.response.get('ETag');
    if (!etag) {
      const bytes = isReusable(body) || ((Buffer.isBuffer(body) || typeof body === 'string') && isJson(ctx.response.type)) ? body : null;
      if (bytes === null) return;
      etag = strongEtagOf(bytes);
      ctx.set('ETag', etag);
    }
    const ifNoneMatch = ctx.get('If-None-Match');
    if (!ifNoneMatch || !noneMatchHits(ifNoneMatch, etag)) return;
    // What the 200 would have been, for the ETag of the representation compression.ts would have chosen.
    const length = Buffer.isBuffer(body) || typeof body === 'string' ? Buffer.byteLength(body) : 0;
    (ctx.state as { notModified?: NotModified }).notModified = { length, type: ctx.response.type };
    ctx.status = 304;
  };
}

/**
 * What a cache may keep (a route's own Cache-Control wins): a company's data is private and revalidated on every use
 * (`private, no-cache`: a 304 keeps it cheap); everything else stays `no-store` (tokens, platform, writes).
 */
export function applyCachePolicy(route: RouteDecl, result: HttpResult): void {
  if (route.method !== 'get' || route.auth !== 'tenant' || result.status !== 200) return;
  if (Object.keys(result.headers ?? {}).some((name) => name.toLowerCase() === 'cache-control')) return;
  result.headers = { ...result.headers, 'Cache-Control': 'private, no-cache' };
}
