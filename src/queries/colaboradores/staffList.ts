// GET /colaboradores: staff by name, or by licence expiry when filtering on licences; "today" is the company's
// calendar day (its time zone).
import { companyDay } from '../empresas/companyCalendar.js';
import { LIMITS } from '../../limits.js';
import type { Filter, Page, SortSpec } from '../../stores/readStore.js';
import type { TenantScope } from '../tenantScope.js';
import { staffView } from '../../projections/colaboradores/staffDoc.js';
import { staffRecords } from './staffRecords.js';
import { changedSince } from '../changedSince.js';

export interface StaffListQuery {
  status?: 'activo' | 'cesado';
  positionId?: string;
  /** vencida: expired before today; por-vencer: expires today or within `days` days. */
  licence?: 'vencida' | 'por-vencer';
  days?: number;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The filter of a list query on day `today` (YYYY-MM-DD, the company's calendar day; null when it filters no licence). */
export function staffFilter(query: Omit<StaffListQuery, 'limit' | 'cursor' | 'updatedSince'>, today: string | null): Filter {
  const filter: Filter = {};
  if (query.status) filter.status = query.status === 'activo' ? 'active' : 'terminated';
  if (query.positionId) filter.positionId = query.positionId;
  if (!query.licence) return filter;
  if (today === null) throw new TypeError('staffFilter: a licence filter compares with the day');
  filter.licenceExpiresOn =
    query.licence === 'vencida'
      ? { $ne: null, $lt: today }
      : { $gte: today, $lte: addDays(today, query.days ?? LIMITS.staffRecord.licenceExpiringDefaultDays) };
  return filter;
}

/** The company's today when the query compares licences with it (the page then depends on it), else null. */
export async function staffListDay(scope: TenantScope, query: Pick<StaffListQuery, 'licence'>): Promise<string | null> {
  return query.licence ? companyDay(scope, scope.services.now()) : null;
}

/** `today`: the company's day as staffListDay read it for this page (read here when not given). */
export async function listStaff(scope: TenantScope, query: StaffListQuery, today?: string | null): Promise<Page<Record<string, unknown>>> {
  today = today === undefined ? await staffListDay(scope, query) : today;
  const sort: SortSpec = query.licence ? { licenceExpiresOn: 1 } : { sortName: 1 };
  const page = await staffRecords(scope).find(
    scope.auth.tenantId,
    { ...staffFilter(query, today), ...changedSince(query.updatedSince) },
    {
      sort,
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(staffView), nextCursor: page.nextCursor };
}
