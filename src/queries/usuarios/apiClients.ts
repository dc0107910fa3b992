// API clients of a company as its administrators see them (never a secret or its hash).
import type { TenantScope } from '../tenantScope.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { platformCollections } from '../platform/memberships.js';
import type { ApiClientDoc } from '../../projections/platform/platformReadModels.js';

export type ApiClientView = Omit<ApiClientDoc, '_position' | 'tenantId'>;

const view = ({ _position, tenantId, ...rest }: ApiClientDoc): ApiClientView => rest;

export async function companyApiClient(scope: TenantScope, clientId: string): Promise<ApiClientView> {
  const doc = await platformCollections(scope.services).apiClients.get(PLATFORM_DOCS, clientId);
  if (!doc || doc.companyId !== scope.auth.tenantId) throw notFoundProblem('No such API client in the selected company');
  return view(doc);
}

export async function companyApiClients(scope: TenantScope, query: { limit: number; cursor?: string | null }) {
  const page = await platformCollections(scope.services).apiClients.find(
    PLATFORM_DOCS,
    { companyId: scope.auth.tenantId },
    { limit: query.limit, after: query.cursor ?? null },
  );
  return { items: page.items.map(view), nextCursor: page.nextCursor };
}
