// Queries over the records of company-defined modules: the record model (get, latest, history, asOf), a record only
// under its own module, and one module's list with the query vocabulary of the built-in lists.
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page, SortSpec } from '../../stores/readStore.js';
import { recordModel, type RecordAt, type RecordPoint } from '../recordModel.js';
import { MODULE_RECORDS, MODULE_RECORDS_PROJECTION } from '../../projections/generador/moduleRecordsProjection.js';
import { foldModuleRecord, moduleRecordView, type ModuleRecordDoc } from '../../projections/generador/moduleRecordDoc.js';
import type { ModuleDoc } from '../../projections/generador/moduleDoc.js';
import { MODULE_RECORD_CATEGORY } from '../../commands/generador/record/moduleRecordEvents.js';
import type { FieldValue, ModuleField } from '../../commands/generador/shared/definitionTypes.js';
import { notFoundProblem, ProblemError, type FieldError } from '../../problems.js';
import { changedSince } from '../changedSince.js';
import { canonicalValue } from '../../commands/generador/shared/canonicalValues.js';
import { preparedPage } from '../preparedPages.js';

const NOT_FOUND = 'Record not found';

export const moduleRecordModel = recordModel<ModuleRecordDoc>({
  projection: MODULE_RECORDS_PROJECTION,
  collection: MODULE_RECORDS,
  category: MODULE_RECORD_CATEGORY,
  fold: (doc, event) => foldModuleRecord(doc, event),
  notFound: NOT_FOUND,
});
export const moduleRecords = moduleRecordModel.collection;
export { moduleRecordView };

/** The company's record of that module, or 404 (a record of another module is exactly as absent). */
export async function recordOfModule(scope: TenantScope, module: string, id: string): Promise<ModuleRecordDoc> {
  const doc = await moduleRecordModel.get(scope, id);
  if (!doc || doc.module !== module) throw notFoundProblem(NOT_FOUND);
  return doc;
}

/** The record of that module as it was at an instant or version (folded from its stream), or 404. */
export async function recordOfModuleAt(
  scope: TenantScope,
  module: string,
  id: string,
  point: RecordPoint,
): Promise<RecordAt<ModuleRecordDoc>> {
  const at = await moduleRecordModel.at(scope, id, point);
  if (at.doc.module !== module) throw notFoundProblem(NOT_FOUND);
  return at;
}

/** Sort keys a list takes besides the module's sort fields. */
export const RECORD_SORTS = ['createdAt', 'updatedAt'] as const;

export interface ModuleRecordListQuery {
  patientId?: string;
  state?: string;
  /** Archived records only (true) or those not archived (false, the default). */
  archived?: boolean;
  /** Equality on the module's filter fields (a multi-choice field matches a record holding that choice), by field name. */
  filters?: Record<string, FieldValue>;
  /** One of the module's sort fields, createdAt or updatedAt (default createdAt). */
  sort?: string;
  order?: 'asc' | 'desc';
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** A query value as the field compares it (a query string gives text: numbers and booleans are read as such). */
function filterValue(field: ModuleField, value: FieldValue): FieldValue | null {
  if (typeof value !== 'string') return value;
  if (field.type === 'number' || field.type === 'integer') {
    const number = value.trim() === '' ? NaN : Number(value);
    return Number.isFinite(number) && (field.type === 'number' || Number.isInteger(number)) ? number : null;
  }
  if (field.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : null;
  return canonicalValue(field, value);
}

/** The store filter of a list: the module, the record's own filters and the module's filter fields (422 naming a bad one). */
export function moduleRecordFilter(module: ModuleDoc, query: ModuleRecordListQuery): Filter {
  const filter: Filter = { module: module.id, archived: query.archived ?? false };
  if (query.patientId !== undefined) filter.patientId = query.patientId;
  if (query.state !== undefined) filter.state = query.state;
  const problems: FieldError[] = [];
  for (const [name, raw] of Object.entries(query.filters ?? {})) {
    const field = module.definition.fields.find((f) => f.name === name);
    if (!field || !module.definition.filterFields.includes(name)) {
      problems.push({ pointer: `/query/${name}`, message: `not a filter of module '${module.id}'` });
      continue;
    }
    const value = filterValue(field, raw);
    if (value === null) problems.push({ pointer: `/query/${name}`, message: `not a value of field '${name}' (${field.type})` });
    else filter[`values.${name}`] = value;
  }
  if (problems.length > 0) throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'Invalid list query', {}, problems);
  return { ...filter, ...changedSince(query.updatedSince) };
}

/** The store sort of a list: createdAt, updatedAt or a module's sort field (on its mapped value); default newest first. */
export function moduleRecordSort(module: ModuleDoc, query: Pick<ModuleRecordListQuery, 'sort' | 'order'>): SortSpec {
  const sort = query.sort ?? 'createdAt';
  const direction = (query.order ?? 'desc') === 'asc' ? 1 : -1;
  if ((RECORD_SORTS as readonly string[]).includes(sort)) return { [sort]: direction };
  if (!module.definition.sortFields.includes(sort)) {
    throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'Invalid list query', {}, [
      {
        pointer: '/query/sort',
        message: `not a sort of module '${module.id}': ${[...RECORD_SORTS, ...module.definition.sortFields].join(', ')}`,
      },
    ]);
  }
  return { [`values.${sort}`]: direction };
}

/** A page of one module's records as list items (the module's list fields); the cursor is stable (the store adds id). */
export async function listModuleRecords(
  scope: TenantScope,
  module: ModuleDoc,
  query: ModuleRecordListQuery,
): Promise<Page<Record<string, unknown>>> {
  const page = await moduleRecords(scope).find(scope.auth.tenantId, moduleRecordFilter(module, query), {
    sort: moduleRecordSort(module, query),
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map((doc) => moduleRecordView(doc, module, { listFields: true })), nextCursor: page.nextCursor };
}

/**
 * The caller's answer made of a page of one module's list (its JSON), kept while the company's records and the module's
 * definition are unchanged: every reader of the module sees the same list fields, so there is one variant.
 */
export function preparedModuleRecordList<A>(
  scope: TenantScope,
  module: ModuleDoc,
  query: ModuleRecordListQuery,
  prepare: (page: Page<Record<string, unknown>>) => A,
): Promise<A> {
  const { patientId, state, archived, sort, order, limit, cursor, updatedSince, filters } = query;
  const normalized = JSON.stringify([
    module.id,
    module.revision,
    patientId,
    state,
    archived,
    sort,
    order,
    limit,
    cursor,
    updatedSince,
    filters,
  ]);
  return preparedPage(scope, { projection: MODULE_RECORDS_PROJECTION, collection: MODULE_RECORDS, query: normalized }, async () =>
    prepare(await listModuleRecords(scope, module, query)),
  );
}

/** Every module record of a patient, any module (the patient's history reads each record's stream), by id. */
export async function recordIdsOfPatient(scope: TenantScope, patientId: string): Promise<{ id: string; module: string }[]> {
  const out: { id: string; module: string }[] = [];
  let after: string | null = null;
  do {
    const page: Page<ModuleRecordDoc> = await moduleRecords(scope).find(
      scope.auth.tenantId,
      { patientId },
      { sort: { id: 1 }, limit: 500, after, projection: { id: 1, module: 1 } },
    );
    out.push(...page.items.map((doc) => ({ id: doc.id, module: doc.module })));
    after = page.nextCursor;
  } while (after);
  return out;
}

/** How many records a module has (archived ones apart unless asked), optionally of one patient or in one state. */
export function countModuleRecords(
  scope: TenantScope,
  module: string,
  opts: { archived?: boolean; patientId?: string; state?: string } = {},
): Promise<number> {
  const filter: Filter = { module, archived: opts.archived ?? false };
  if (opts.patientId !== undefined) filter.patientId = opts.patientId;
  if (opts.state !== undefined) filter.state = opts.state;
  return moduleRecords(scope).count(scope.auth.tenantId, filter);
}
