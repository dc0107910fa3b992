// API clients of a company as its administrators see them (never a secret or its hash).
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { platformCollections } from '../platform/memberships.js';
import type { ApiClientDoc } from '../../projections/platform/platformReadModels.js';
import { foldApiClient } from '../../projections/platform/apiClientsProjection.js';
import { PLATFORM_TENANT, streamName, type RecordedEvent } from '../../stores/eventStore.js';
import { foldAt, type RecordAt, type RecordPoint } from '../recordModel.js';
import { changedSince } from '../changedSince.js';

export type ApiClientView = Omit<ApiClientDoc, '_position' | 'tenantId'>;

const view = ({ _position, _changedAt: _changed, tenantId, ...rest }: ApiClientDoc): ApiClientView => rest;

export async function companyApiClient(scope: TenantScope, clientId: string): Promise<ApiClientView> {
  const doc = await platformCollections(scope.services).apiClients.get(PLATFORM_DOCS, clientId);
  if (!doc || doc.companyId !== scope.auth.tenantId) throw notFoundProblem('No such API client in the selected company');
  return view(doc);
}

type ClientAt = ApiClientDoc & { revision: number };

/** A client of this company as it was at an instant or version, folded from its own stream; another company's: 404. */
export async function companyApiClientAt(scope: TenantScope, clientId: string, point: RecordPoint): Promise<RecordAt<ApiClientView>> {
  const own = streamName(PLATFORM_TENANT, 'apiClient', clientId);
  const fold = (doc: ClientAt | null, e: RecordedEvent): ClientAt | null => {
    const next = foldApiClient(doc, e);
    return next === doc || !next
      ? (next as ClientAt | null)
      : ({ ...next, revision: e.revision, _position: Number(e.position) } as ClientAt);
  };
  const spec = { fold, where: (d: ClientAt) => d.companyId === scope.auth.tenantId, notFound: 'API client not found' };
  const at = foldAt(spec, await scope.services.events.readStream(own), own, clientId, point);
  const { revision: _revision, ...doc } = at.doc;
  return { ...at, doc: view(doc) };
}

export async function companyApiClients(scope: TenantScope, query: { limit: number; cursor?: string | null; updatedSince?: string }) {
  const page = await platformCollections(scope.services).apiClients.find(
    PLATFORM_DOCS,
    { companyId: scope.auth.tenantId, ...changedSince(query.updatedSince) },
    { limit: query.limit, after: query.cursor ?? null },
  );
  return { items: page.items.map(view), nextCursor: page.nextCursor };
}
