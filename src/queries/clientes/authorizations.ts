// Payer authorizations as clients read them: used and remaining, and the status on the company's today.
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { companyDay } from '../empresas/companyCalendar.js';
import { authorizationStatusOn } from '../../commands/clientes/shared/authorizationState.js';
import { authorizationStateOf, type AuthorizationDoc } from '../../projections/clientes/authorizationDoc.js';
import { authorizationModel, authorizations } from './clients.js';
import type { RecordAt, RecordPoint } from '../recordModel.js';
import { changedSince } from '../changedSince.js';

/** An authorization of this client of the caller's company, or 404 (one of another client is exactly as absent). */
export async function authorizationOfClient(scope: TenantScope, clientId: string, id: string): Promise<AuthorizationDoc> {
  const doc = await authorizationModel.get(scope, id);
  if (doc?.clientId !== clientId) throw notFoundProblem('Authorization not found');
  return doc;
}

export function authorizationView(doc: AuthorizationDoc, today: string): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, consumptions, reservations, ...view } = doc;
  const sessions = Object.entries(consumptions)
    .map(([sessionId, date]) => ({ sessionId, date }))
    .sort((a, b) => a.date.localeCompare(b.date) || a.sessionId.localeCompare(b.sessionId));
  const held = Object.entries(reservations ?? {})
    .map(([sessionId, date]) => ({ sessionId, date }))
    .sort((a, b) => a.date.localeCompare(b.date) || a.sessionId.localeCompare(b.sessionId));
  return {
    ...view,
    reserved: held.length,
    consumptions: sessions,
    reservations: held,
    status: authorizationStatusOn(authorizationStateOf(doc), today),
  };
}

/** The client's authorization as it was at a point, with its status on the company's day then (another client's: 404). */
export async function authorizationOfClientAt(
  scope: TenantScope,
  clientId: string,
  id: string,
  point: RecordPoint,
): Promise<{ at: RecordAt<AuthorizationDoc>; view: Record<string, unknown> }> {
  const at = await authorizationModel.at(scope, id, point);
  if (at.doc.clientId !== clientId) throw notFoundProblem('Authorization not found');
  const then = new Date('asOf' in point ? point.asOf : at.event.metadata.occurredAt);
  return { at, view: authorizationView(at.doc, await companyDay(scope, then)) };
}

export async function authorizationWithStatus(scope: TenantScope, doc: AuthorizationDoc): Promise<Record<string, unknown>> {
  return authorizationView(doc, await companyDay(scope, scope.services.now()));
}

export interface AuthorizationListQuery {
  patientId?: string;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

/** The client's authorizations by start of period, optionally of one patient. */
export async function listAuthorizations(
  scope: TenantScope,
  clientId: string,
  query: AuthorizationListQuery,
): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = { clientId, ...(query.patientId ? { patientId: query.patientId } : {}) };
  const page = await authorizations(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { validFrom: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  const today = await companyDay(scope, scope.services.now());
  return { items: page.items.map((d) => authorizationView(d, today)), nextCursor: page.nextCursor };
}
