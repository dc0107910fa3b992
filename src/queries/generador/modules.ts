// Queries over the module definitions: the record model (get, or404, latest after a write), a module by code as the
// generated routes need it, and the list.
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { MODULES, MODULES_PROJECTION } from '../../projections/generador/modulesProjection.js';
import { foldModule, moduleView, type ModuleDoc } from '../../projections/generador/moduleDoc.js';
import { MODULE_CATEGORY } from '../../commands/generador/module/moduleEvents.js';
import type { ModuleStatus } from '../../commands/generador/shared/definitionTypes.js';
import { changedSince } from '../changedSince.js';
import { preparedPage } from '../preparedPages.js';

export const moduleModel = recordModel<ModuleDoc>({
  projection: MODULES_PROJECTION,
  collection: MODULES,
  category: MODULE_CATEGORY,
  fold: foldModule,
  notFound: 'Module not found',
});
export const modules = moduleModel.collection;

/**
 * A module of the company by its code, or null (another company's module is null the same way). Every record request
 * asks it first: the document is read once per change of the company's modules, not per request (read-only: shared).
 */
export const moduleByCode = (scope: TenantScope, code: string): Promise<ModuleDoc | null> =>
  preparedPage(scope, { projection: MODULES_PROJECTION, collection: MODULES, query: code }, () =>
    modules(scope).get(scope.auth.tenantId, code),
  );

/** Every module of the company that has records to serve (published or retired), by code. */
export async function servedModules(scope: TenantScope): Promise<ModuleDoc[]> {
  const out: ModuleDoc[] = [];
  let after: string | null = null;
  do {
    const page: Page<ModuleDoc> = await modules(scope).find(
      scope.auth.tenantId,
      { status: { $in: ['published', 'retired'] } },
      { sort: { id: 1 }, limit: 200, after },
    );
    out.push(...page.items);
    after = page.nextCursor;
  } while (after);
  return out;
}

export interface ModuleListQuery {
  status?: ModuleStatus;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listModules(scope: TenantScope, query: ModuleListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = query.status ? { status: query.status } : {};
  const page = await modules(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    { sort: { id: 1 }, limit: query.limit, after: query.cursor ?? null },
  );
  return { items: page.items.map(moduleView), nextCursor: page.nextCursor };
}
