// RFC 8288 `Link: <...>; rel="next"` beside nextCursor: the same request with the cursor replaced, relative to the host.
import type Koa from 'koa';
import { PreparedJson } from './preparedJson.js';
import type { HttpResult, ResponseDecl } from './routeTypes.js';

/** The contract's words for the header, said once (components.headers) for every paged answer. */
export const NEXT_LINK_HEADER =
  'RFC 8288 link to the next page (`rel="next"`, relative URL: this query with cursor replaced); absent on the last page';

/** The next cursor of a 200 answer, or null on the last page (or when the answer is no page). */
function nextCursorOf(result: HttpResult): string | null {
  if (result.status !== 200) return null;
  if (result.body instanceof PreparedJson) return result.body.nextCursor;
  const body = result.body as { nextCursor?: unknown } | null | undefined;
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return null;
  return typeof body.nextCursor === 'string' ? body.nextCursor : null;
}

/** Sets the Link header of a page that has a next one. */
export function linkNextPage(ctx: Koa.Context, result: HttpResult): void {
  const cursor = nextCursorOf(result);
  if (cursor === null) return;
  const query = new URLSearchParams(ctx.querystring);
  query.delete('cursor');
  query.append('cursor', cursor);
  ctx.set('Link', `<${ctx.path}?${query.toString()}>; rel="next"`);
}

/** Paged success answers (a body schema with nextCursor) declare the Link header. */
export function withNextLink(declared: Record<number, ResponseDecl>): Record<number, ResponseDecl> {
  const out: Record<number, ResponseDecl> = {};
  for (const [status, decl] of Object.entries(declared)) {
    const paged = Number(status) === 200 && (decl.schema?.properties as Record<string, unknown> | undefined)?.nextCursor !== undefined;
    out[Number(status)] = paged ? { ...decl, headers: { ...decl.headers, Link: NEXT_LINK_HEADER } } : decl;
  }
  return out;
}
