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

/** The filter of a list query on day `today` (YYYY-MM-DD, the company's calendar day). */
export function staffFilter(query: Omit<StaffListQuery, 'limit' | 'cursor' | 'updatedSince'>, today: string): Filter {
  const filter: Filter = {};
  if (query.status) filter.status = query.status === 'activo' ? 'active' : 'terminated';
  if (query.positionId) filter.positionId = query.positionId;
  if (query.licence === 'vencida') filter.licenceExpiresOn = { $ne: null, $lt: today };
  if (query.licence === 'por-vencer') {
    filter.licenceExpiresOn = { $gte: today, $lte: addDays(today, query.days ?? LIMITS.staffRecord.licenceExpiringDefaultDays) };
  }
  return filter;
}

export async function listStaff(scope: TenantScope, query: StaffListQuery): Promise<Page<Record<string, unknown>>> {
  const today = await companyDay(scope, scope.services.now());
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
