// The month's adequacy and the alerts of a range kept prepared (e.g. serialized) per company and query while the sessions
// and what their clinical values read (patients, policy, prescriptions) are unchanged: each preparation judges every
// session of the range, which a screen refreshing the report would otherwise pay on every read.
import { SESSIONS, SESSIONS_PROJECTION } from '../../projections/dialisis/sessionsProjection.js';
import { preparedPage } from '../preparedPages.js';
import type { TenantScope } from '../tenantScope.js';
import { CLINICAL_PROJECTIONS, CLINICAL_SOURCES } from './clinicalSources.js';

/** What the reports read (a read at a write's minPosition waits for them all): the sessions and their clinical values' sources. */
export const SESSION_REPORT_READS: readonly string[] = [SESSIONS_PROJECTION, ...CLINICAL_PROJECTIONS];

/** `report` names the answer ('adequacy', 'alerts'); `query` its parameters in a fixed order (absent ones null). */
export function preparedSessionReport<A>(scope: TenantScope, report: string, query: unknown[], prepare: () => Promise<A>): Promise<A> {
  const key = {
    projection: SESSIONS_PROJECTION,
    collection: SESSIONS,
    query: `${report} ${JSON.stringify(query)}`,
    alsoFrom: CLINICAL_SOURCES,
  };
  return preparedPage(scope, key, prepare);
}
