// A list's cursor leaves sealed like the consistency token: AES-256-GCM under a key derived from the token-signing
// key, with the company, route, path parameters and filter as associated data. A client can then neither forge a
// cursor (a forged {"$regex": ...} once reached mingo on every document), read the sort values it holds, nor
// carry it to another company, list, sort or filter. The read stores keep their own plain cursor inside.
import { canonicalBase64url } from './canonicalBase64.js';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { AppServices } from '../services.js';
import { authRuntime } from '../auth/authRuntime.js';
import { InvalidCursorError } from '../stores/readCursor.js';
import { PreparedJson } from './preparedJson.js';
import type { HttpResult, RequestContext, RouteDecl, RouteInput } from './routeTypes.js';

export interface PageCursors {
  seal(inner: string, binding: string): string;
  /** The inner cursor of a cursor of ours sealed for this binding, or null for anything else. */
  open(sealed: string, binding: string): string | null;
}

const VERSION = 'p1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function createPageCursors(signingKey: Buffer): PageCursors {
  const key = Buffer.from(hkdfSync('sha256', signingKey, Buffer.alloc(0), 'dialysis page cursor v1', 32));
  return {
    seal(inner, binding) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(binding, 'utf8'));
      const sealed = Buffer.concat([nonce, cipher.update(inner, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${sealed.toString('base64url')}`;
    },
    open(sealed, binding) {
      if (!sealed.startsWith(`${VERSION}.`)) return null;
      const bytes = canonicalBase64url(sealed.slice(VERSION.length + 1));
      if (!bytes || bytes.length <= NONCE_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
        decipher.setAAD(Buffer.from(binding, 'utf8'));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return null; // the tag does not verify: tampered, another binding, or another deployment's
      }
    },
  };
}

// One codec per running service (keyed like the auth runtime, by its event store).
const codecs = new WeakMap<object, Promise<PageCursors>>();

export function pageCursors(services: AppServices): Promise<PageCursors> {
  let codec = codecs.get(services.events);
  if (!codec) {
    codec = authRuntime(services).then((runtime) => createPageCursors(runtime.jwt.key));
    codecs.set(services.events, codec);
  }
  return codec;
}

/** Query parameters that may change from page to page of one list. */
const PAGE_OWN = new Set(['cursor', 'limit', 'minPosition']);

/** What a cursor is bound to: the company (or platform), the route, its path parameters and every other query parameter. */
export function cursorBinding(
  route: Pick<RouteDecl, 'method' | 'path'>,
  scope: string,
  input: Pick<RouteInput, 'params' | 'query'>,
): string {
  const query = (input.query ?? {}) as Record<string, unknown>;
  const filter = Object.keys(query)
    .filter((name) => !PAGE_OWN.has(name))
    .sort()
    .map((name) => [name, query[name]]);
  const params = input.params as Record<string, unknown> | undefined;
  const paramList = Object.keys(params ?? {})
    .sort()
    .map((name) => [name, params![name]]);
  return JSON.stringify([VERSION, scope, route.method, route.path, paramList, filter]);
}

export const routeTakesCursor = (route: RouteDecl): boolean =>
  Object.prototype.hasOwnProperty.call((route.query as { properties?: object } | undefined)?.properties ?? {}, 'cursor');

/** Seals the inner cursors of one request's answer. */
export type CursorSealer = (inner: string | null) => string | null;
const sealers = new WeakMap<RequestContext, CursorSealer>();

/**
 * Opens the request's cursor in place (InvalidCursorError, a 400, unless it is ours for this binding) and keeps what
 * seals the answer's next cursor for this request.
 */
export async function openRequestCursor(rctx: RequestContext, input: RouteInput, binding: string): Promise<void> {
  const codec = await pageCursors(rctx.services);
  const query = input.query as Record<string, unknown>;
  if (typeof query.cursor === 'string') {
    const inner = codec.open(query.cursor, binding);
    if (inner === null) throw new InvalidCursorError();
    query.cursor = inner;
  }
  sealers.set(rctx, (inner) => (inner === null ? null : codec.seal(inner, binding)));
}

/** The next cursor as it leaves: for handlers that serialize their answer themselves (a PreparedJson page). */
export function sealPageCursor(rctx: RequestContext, inner: string | null): string | null {
  const seal = sealers.get(rctx);
  if (!seal) throw new TypeError('sealPageCursor: the route declares no cursor');
  return seal(inner);
}

/** Seals the top-level `nextCursor` of a JSON answer; a PreparedJson answer was sealed by its handler. */
export function sealAnswerCursor(rctx: RequestContext, result: HttpResult): void {
  const seal = sealers.get(rctx);
  const body = result.body as Record<string, unknown> | undefined;
  if (!seal || body === null || typeof body !== 'object' || Buffer.isBuffer(body) || body instanceof PreparedJson) return;
  if (typeof body.nextCursor === 'string') result.body = { ...body, nextCursor: seal(body.nextCursor) };
}
