// Bodies sent many times as the same bytes (a prepared list page, the contract, the docs' and panel's assets): their
// strong ETag and their gzip and brotli forms are made once per body, on first use, and kept as long as the body is.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Coding = 'br' | 'gzip';

/** 'static': bytes that never change while the process runs (compressed harder, once); 'page': a prepared answer. */
export type ReuseKind = 'static' | 'page';

interface Kept {
  kind: ReuseKind;
  etag?: string;
  coded: Map<Coding, Promise<Buffer>>;
}

const kept = new WeakMap<Buffer, Kept>();
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Marks `bytes` as sent again and again unchanged: its ETag and compressed forms are then made once, or taken as
 * given in `coded` (a static asset's .br and .gz the build wrote, which must decode to `bytes`).
 */
export function keepReusable(bytes: Buffer, kind: ReuseKind = 'page', coded: Partial<Record<Coding, Buffer>> = {}): Buffer {
  if (!kept.has(bytes)) kept.set(bytes, { kind, coded: new Map() });
  const forms = kept.get(bytes)!.coded;
  for (const [coding, form] of Object.entries(coded) as [Coding, Buffer][]) forms.set(coding, Promise.resolve(form));
  return bytes;
}

export const isReusable = (body: unknown): body is Buffer => Buffer.isBuffer(body) && kept.has(body);

/** A strong entity tag of these exact bytes (RFC 9110 8.8.3), hashed once for a reusable body. */
export function strongEtagOf(bytes: Buffer | string): string {
  const entry = Buffer.isBuffer(bytes) ? kept.get(bytes) : undefined;
  if (entry?.etag) return entry.etag;
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  if (entry) entry.etag = etag;
  return etag;
}

/** The body in `coding`, compressed the first time it is asked for (concurrent first requests share the work). */
export function codedForm(bytes: Buffer, coding: Coding): Promise<Buffer> {
  const entry = kept.get(bytes) ?? { kind: 'page' as const, coded: new Map<Coding, Promise<Buffer>>() };
  let form = entry.coded.get(coding);
  if (!form) {
    const best = entry.kind === 'static';
    form =
      coding === 'br'
        ? brotli(bytes, {
            params: {
              // 10, not 11: the docs bundle (1.7 MB) in ~1 s instead of ~2.5 s, 2 % larger.
              [zlib.constants.BROTLI_PARAM_QUALITY]: best ? 10 : 5,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          })
        : gzip(bytes, { level: best ? zlib.constants.Z_BEST_COMPRESSION : zlib.constants.Z_DEFAULT_COMPRESSION });
    entry.coded.set(coding, form);
    form.catch(() => entry.coded.delete(coding));
  }
  return form;
}
