// Companies as the platform lists them and as a company admin reads their own.
import type { ReadServices } from '../../readServices.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { notFoundProblem } from '../../problems.js';
import { platformCollections } from '../platform/memberships.js';
import type { CompanyDoc } from '../../projections/platform/platformReadModels.js';
import { companyRecordFold } from '../../projections/platform/companiesProjection.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { foldAt, type RecordAt, type RecordPoint } from '../recordModel.js';
import { changedSince } from '../changedSince.js';

/** The company stream's category (the company decider's). */
const COMPANY_CATEGORY = 'company';

export interface CompanyView {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  suspendedAt: string | null;
  suspensionReason: string | null;
  profile: CompanyDoc['profile'];
  modules: string[];
  registeredAt: string;
}

export const companyView = (doc: CompanyDoc): CompanyView => ({
  id: doc.id,
  name: doc.name,
  status: doc.status ?? 'active',
  suspendedAt: doc.suspendedAt ?? null,
  suspensionReason: doc.suspensionReason ?? null,
  profile: doc.profile ?? {},
  modules: [...(doc.modules ?? [])],
  registeredAt: doc.registeredAt,
});

export async function companyDoc(services: ReadServices, companyId: string): Promise<CompanyDoc> {
  const doc = await platformCollections(services).companies.get(PLATFORM_DOCS, companyId);
  if (!doc) throw notFoundProblem('No such company');
  return doc;
}

/** The company as it was at an instant or version, folded from its own stream (its versions are the stream's revisions). */
export async function companyAt(services: ReadServices, companyId: string, point: RecordPoint): Promise<RecordAt<CompanyDoc>> {
  const own = streamName(PLATFORM_TENANT, COMPANY_CATEGORY, companyId);
  const spec = { fold: companyRecordFold, notFound: 'Company not found' };
  return foldAt(spec, await services.events.readStream(own), own, companyId, point);
}

export async function listCompanies(
  services: ReadServices,
  query: { status?: 'active' | 'suspended'; limit: number; cursor?: string | null; updatedSince?: string },
): Promise<{ items: CompanyView[]; nextCursor: string | null }> {
  const filter = { ...(query.status ? { status: query.status } : {}), ...changedSince(query.updatedSince) };
  const page = await platformCollections(services).companies.find(PLATFORM_DOCS, filter, {
    limit: query.limit,
    after: query.cursor ?? null,
    sort: { name: 1 },
  });
  return { items: page.items.map(companyView), nextCursor: page.nextCursor };
}
