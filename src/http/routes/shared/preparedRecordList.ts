// A record kit's list served from pages prepared once per change (src/queries/preparedPages.ts): the page's JSON text
// and its sealed next cursor are made once per company, route, query and context, and sent again while nothing was
// written to the record's collection since; a list made of more than its collection names the rest as its context.
import { preparedPage } from '../../../queries/preparedPages.js';
import type { RecordDoc, RecordModel } from '../../../queries/recordModel.js';
import type { TenantScope } from '../../../queries/tenantScope.js';
import type { Page } from '../../../stores/readStore.js';
import { sealPageCursor } from '../../pageCursor.js';
import { PreparedJson } from '../../preparedJson.js';
import type { RequestContext } from '../../routeTypes.js';

/** What a page is made of besides its collection: `key` names it (equal keys make equal pages), `value` goes to the list. */
export interface ListContext<C> {
  key: string;
  value: C;
}

export interface PreparedListSpec<Q, C> {
  /**
   * The request's context (e.g. the day a due date is compared with, the policy revision a plan comes from), read after
   * its read-your-writes wait. Unset: the page is made of the collection and the query alone.
   */
  context?: (scope: TenantScope, query: Q) => Promise<ListContext<C>>;
}

/** A read-your-writes wait: not part of the page. */
const NOT_OF_THE_PAGE = new Set(['minPosition']);

/** A kit list's page for this request: prepared JSON when the list is prepared, kept while collection and context are unchanged. */
export async function recordListPage<Q extends object, C>(
  rctx: RequestContext,
  scope: TenantScope,
  model: Pick<RecordModel<RecordDoc>, 'projection' | 'logical'>,
  route: string,
  query: Q,
  decl: { list: (scope: TenantScope, query: Q, context?: C) => Promise<Page<unknown>>; prepared?: PreparedListSpec<Q, C> },
): Promise<Page<unknown> | PreparedJson> {
  const { list, prepared: spec } = decl;
  if (!spec) return list(scope, query);
  const context = spec.context ? await spec.context(scope, query) : null;
  const fields = query as Record<string, unknown>;
  // The cursor here is the opened one; the company is in the page's key already (preparedPage).
  const normalized = JSON.stringify([
    route,
    context?.key ?? null,
    Object.keys(fields)
      .filter((name) => !NOT_OF_THE_PAGE.has(name) && fields[name] !== undefined)
      .sort()
      .map((name) => [name, fields[name]]),
  ]);
  return preparedPage(scope, { projection: model.projection, collection: model.logical, query: normalized }, async () => {
    const page = await list(scope, query, context?.value);
    // Sealed once for every request of this key: the cursor is bound to the company, route and filter, all in the key.
    return PreparedJson.of({ ...page, nextCursor: sealPageCursor(rctx, page.nextCursor) });
  });
}
