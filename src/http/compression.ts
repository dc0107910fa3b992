// gzip and brotli answers by Accept-Encoding (koa-compress) for JSON, problem+json, CSV, NDJSON, the contract and the
// docs' and panel's assets above a size threshold; a reusable body is served from its forms compressed once. Never
// for text/event-stream: the change feed and live dashboards stream unbuffered.
import type Koa from 'koa';
import koaCompress from 'koa-compress';
import { codedForm, isReusable, type Coding } from './reusableBodies.js';

const COMPRESSIBLE = /^(?:application\/(?:json|[\w.+-]+\+json|x-ndjson|ndjson|javascript|xml)|text\/(?:csv|html|css|javascript|plain))$/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** Media types worth compressing; event streams never (a compressor would hold events back). */
export const compressibleType = (type: string): boolean => !/event-stream/i.test(type) && COMPRESSIBLE.test(type);

/** A reusable body (see reusableBodies.ts) answered in its kept compressed form when the client accepts one. */
async function precompressed(ctx: Koa.Context, threshold: number): Promise<void> {
  const body: unknown = ctx.body;
  if (!isReusable(body) || body.length < threshold || ctx.status !== 200 || ctx.method !== 'GET') return;
  if (ctx.response.get('Content-Encoding') || NO_TRANSFORM.test(ctx.response.get('Cache-Control'))) return;
  if (!compressibleType(ctx.response.type)) return;
  // brotli whenever it is accepted (as koa-compress prefers it), else gzip.
  const coding: Coding | null = ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
  if (coding === null) return;
  const type = ctx.response.get('Content-Type');
  ctx.body = await codedForm(body, coding);
  ctx.set('Content-Type', type);
  ctx.set('Content-Encoding', coding);
}

/** What a GET answered 304 would have sent (its body is gone by then), kept by conditionalGets.ts. */
export interface NotModified {
  length: number;
  type: string;
}

/** The coding the 200 would have had; a 304 names that representation (RFC 9110 15.4.5). */
function codingOf304(ctx: Koa.Context, threshold: number): string {
  const held = (ctx.state as { notModified?: NotModified }).notModified;
  if (!held || ctx.method !== 'GET' || held.length < threshold || !compressibleType(held.type)) return '';
  if (NO_TRANSFORM.test(ctx.response.get('Cache-Control'))) return '';
  return ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : '';
}

/**
 * A strong ETag names one representation (RFC 9110 8.8.3): a compressed answer's gets the coding as a suffix
 * ("<hash>-br"), which conditionalGets() strips again to compare; a 304 the suffix its 200 would have had.
 */
function codedEtag(ctx: Koa.Context, threshold: number): void {
  const coding = ctx.status === 304 ? codingOf304(ctx, threshold) : ctx.response.get('Content-Encoding');
  const etag = ctx.response.get('ETag');
  if (coding && /^"[^"]*"$/.test(etag)) ctx.set('ETag', `${etag.slice(0, -1)}-${coding}"`);
}

export function compression(threshold: number): Koa.Middleware {
  // brotli (quality 4, koa-compress's default: fast enough per request) or gzip; zstd (Node 22.15+) and deflate not offered.
  const options = { threshold, filter: compressibleType, deflate: false, zstd: false };
  const perRequest = koaCompress(options);
  return async (ctx, next) => {
    await perRequest(ctx, async () => {
      await next();
      await precompressed(ctx, threshold);
    });
    codedEtag(ctx, threshold);
  };
}
