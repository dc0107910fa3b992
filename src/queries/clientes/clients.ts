// Queries over the payer read model, with read-your-writes: a write waits for the projection to apply its events, then
// reads; if the bounded wait runs out it folds the record's own stream instead.
import { LIMITS } from '../../limits.js';
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Collection, Filter, Page } from '../../stores/readStore.js';
import { streamName, type RecordedEvent } from '../../stores/eventStore.js';
import { CLIENTES_PROJECTION, CLIENTS, PAYER_AUTHORIZATIONS } from '../../projections/clientes/clientesProjection.js';
import { AUTHORIZATION_CATEGORY } from '../../commands/clientes/authorizationEvents.js';
import { CLIENT_CATEGORY } from '../../commands/clientes/clientEvents.js';
import { contractInForceOn, lastDayOf } from '../../commands/clientes/shared/contractRules.js';
import { foldClient, type ClientDoc } from '../../projections/clientes/clientDoc.js';
import { foldAuthorization, type AuthorizationDoc } from '../../projections/clientes/authorizationDoc.js';

export const clients = (scope: TenantScope): Collection<ClientDoc> =>
  scope.services.projections.collection<ClientDoc>(CLIENTES_PROJECTION, CLIENTS);
export const authorizations = (scope: TenantScope): Collection<AuthorizationDoc> =>
  scope.services.projections.collection<AuthorizationDoc>(CLIENTES_PROJECTION, PAYER_AUTHORIZATIONS);

/** A client of the caller's company, or 404 (another company's client is exactly as absent). Pacientes may check a coverage's clientId with it. */
export async function clientOr404(scope: TenantScope, id: string): Promise<ClientDoc> {
  const doc = await clients(scope).get(scope.auth.tenantId, id);
  if (!doc) throw notFoundProblem('Client not found');
  return doc;
}

type Fold<T> = (doc: T | null, event: RecordedEvent) => T | null;

/** The record at least at the write's revision: from the read model, or folded from its stream when the model lags. */
export async function afterWrite<T extends { revision: number }>(
  scope: TenantScope,
  collection: Collection<T & { id: string; tenantId: string }>,
  category: string,
  id: string,
  fold: Fold<T>,
  result: { revision: number; position: bigint | null },
): Promise<T> {
  if (result.position !== null) {
    await scope.services.projections.waitFor(result.position, {
      projections: [CLIENTES_PROJECTION],
      timeoutMs: LIMITS.readYourWrites.maxWaitMs,
    });
  }
  const doc = await collection.get(scope.auth.tenantId, id);
  if (doc && doc.revision >= result.revision) return doc;
  let folded: T | null = null;
  for (const e of await scope.services.events.readStream(streamName(scope.auth.tenantId, category, id))) folded = fold(folded, e);
  if (!folded) throw notFoundProblem('Not found');
  return folded;
}

export const clientAfterWrite = (scope: TenantScope, id: string, result: { revision: number; position: bigint | null }) =>
  afterWrite<ClientDoc>(scope, clients(scope), CLIENT_CATEGORY, id, foldClient, result);
export const authorizationAfterWrite = (scope: TenantScope, id: string, result: { revision: number; position: bigint | null }) =>
  afterWrite<AuthorizationDoc>(scope, authorizations(scope), AUTHORIZATION_CATEGORY, id, foldAuthorization, result);

type Contract = ClientDoc['contracts'][number];

/** A contract as clients read it: its last day in force and whether it is terminated. */
export const contractView = (c: Contract, clientId: string): Record<string, unknown> => ({
  ...c,
  clientId,
  lastDay: lastDayOf(c),
  status: c.terminatedOn !== undefined ? 'terminated' : 'signed',
});

/** What clients see: the client without its internal keys, contracts with their last day. */
export function clientView(doc: ClientDoc): Record<string, unknown> {
  const { tenantId: _t, _position, nameKey: _k, contracts, ...view } = doc;
  return { ...view, contracts: contracts.map((c) => contractView(c, doc.id)) };
}

export interface ClientListQuery {
  status?: string;
  payerType?: string;
  limit: number;
  cursor?: string;
}

export async function listClients(scope: TenantScope, query: ClientListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.status) filter.status = query.status;
  if (query.payerType) filter.payerType = query.payerType;
  const page = await clients(scope).find(scope.auth.tenantId, filter, {
    sort: { nameKey: 1 },
    limit: query.limit,
    after: query.cursor ?? null,
  });
  return { items: page.items.map(clientView), nextCursor: page.nextCursor };
}

/** A contract of this client, or 404. */
export function contractOr404(doc: ClientDoc, contractId: string): Contract {
  const contract = doc.contracts.find((c) => c.contractId === contractId);
  if (!contract) throw notFoundProblem('Contract not found');
  return contract;
}

/** The contract (with its rate) in force on a date for a service, or null. */
export async function rateInForce(scope: TenantScope, clientId: string, serviceCode: string | undefined, date: string) {
  const doc = await clientOr404(scope, clientId);
  const contract = contractInForceOn(doc.contracts, date, serviceCode);
  return { date, serviceCode: serviceCode ?? null, contract: contract ? contractView(contract, clientId) : null };
}
