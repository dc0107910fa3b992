// A company's calendar day: licences, schedules and "today" are counted in the company's own time zone.
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { platformCollections } from '../platform/memberships.js';
import { COMPANIES } from '../../projections/platform/platformReadModels.js';

// Making a formatter costs ~150 µs, formatting ~1: one per zone (null: not a zone this runtime knows), zones are few.
const formatters = new Map<string, Intl.DateTimeFormat | null>();
const MAX_ZONES = 1000;

function formatterOf(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      formatter = null;
    }
    if (formatters.size < MAX_ZONES) formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date (YYYY-MM-DD) of `at` in `timeZone` (an IANA zone; UTC when unknown). */
export function calendarDate(at: Date, timeZone: string): string {
  return formatterOf(timeZone)?.format(at) ?? at.toISOString().slice(0, 10);
}

// The zone read per company, kept while the platform's companies are unchanged (their stamp): a widget, a board or a
// licence check asks it on every read, and reading the company's document cost ~50 µs of a ~300 µs read.
const zones = new WeakMap<object, Map<string, { stamp: number; zone: string }>>();
const MAX_KEPT_COMPANIES = 10_000;

/** The company's time zone from its profile; UTC for companies registered by name only. */
export async function companyTimeZone(scope: TenantScope): Promise<string> {
  const { projections } = scope.services;
  const stamp = projections.changeStamp(COMPANIES.projection, COMPANIES.collection, PLATFORM_DOCS);
  const kept = stamp === null ? undefined : zones.get(projections)?.get(scope.auth.tenantId);
  if (kept && kept.stamp === stamp) return kept.zone;
  const company = await platformCollections(scope.services).companies.get(PLATFORM_DOCS, scope.auth.tenantId);
  const zone = company?.profile?.timeZone ?? 'UTC';
  if (stamp !== null) {
    let byCompany = zones.get(projections);
    if (!byCompany || byCompany.size >= MAX_KEPT_COMPANIES)
      zones.set(projections, (byCompany = new Map<string, { stamp: number; zone: string }>()));
    byCompany.set(scope.auth.tenantId, { stamp, zone });
  }
  return zone;
}

/** The company's calendar day at instant `at`. */
export async function companyDay(scope: TenantScope, at: Date): Promise<string> {
  return calendarDate(at, await companyTimeZone(scope));
}
