// Queries over the payer read model: the client and authorization record models (get, or404, latest after a write),
// contracts as clients read them, the list, and the rate in force.
import { notFoundProblem } from '../../problems.js';
import type { TenantScope } from '../tenantScope.js';
import type { Filter, Page } from '../../stores/readStore.js';
import { recordModel } from '../recordModel.js';
import { CLIENTES_PROJECTION, CLIENTS, PAYER_AUTHORIZATIONS } from '../../projections/clientes/clientesProjection.js';
import { AUTHORIZATION_CATEGORY } from '../../commands/clientes/authorizationEvents.js';
import { CLIENT_CATEGORY } from '../../commands/clientes/clientEvents.js';
import { contractInForceOn, lastDayOf } from '../../commands/clientes/shared/contractRules.js';
import { foldClient, type ClientDoc } from '../../projections/clientes/clientDoc.js';
import { foldAuthorization, type AuthorizationDoc } from '../../projections/clientes/authorizationDoc.js';
import { changedSince } from '../changedSince.js';

/** The client record: get, or404 (Pacientes checks a coverage's clientId with it) and the read-after-write latest. */
export const clientModel = recordModel<ClientDoc>({
  projection: CLIENTES_PROJECTION,
  collection: CLIENTS,
  category: CLIENT_CATEGORY,
  fold: foldClient,
  notFound: 'Client not found',
});
/** The payer authorization record (its own stream, under a client). */
export const authorizationModel = recordModel<AuthorizationDoc>({
  projection: CLIENTES_PROJECTION,
  collection: PAYER_AUTHORIZATIONS,
  category: AUTHORIZATION_CATEGORY,
  fold: foldAuthorization,
  notFound: 'Authorization not found',
});
export const clients = clientModel.collection;
export const authorizations = authorizationModel.collection;

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
  const { tenantId: _t, _position, _changedAt: _changed, nameKey: _k, contracts, ...view } = doc;
  return { ...view, contracts: contracts.map((c) => contractView(c, doc.id)) };
}

export interface ClientListQuery {
  status?: string;
  payerType?: string;
  limit: number;
  cursor?: string;
  updatedSince?: string;
}

export async function listClients(scope: TenantScope, query: ClientListQuery): Promise<Page<Record<string, unknown>>> {
  const filter: Filter = {};
  if (query.status) filter.status = query.status;
  if (query.payerType) filter.payerType = query.payerType;
  const page = await clients(scope).find(
    scope.auth.tenantId,
    { ...filter, ...changedSince(query.updatedSince) },
    {
      sort: { nameKey: 1 },
      limit: query.limit,
      after: query.cursor ?? null,
    },
  );
  return { items: page.items.map(clientView), nextCursor: page.nextCursor };
}

/** A contract of this client's document, or 404. */
export function contractIn(doc: ClientDoc, contractId: string): Contract {
  const contract = doc.contracts.find((c) => c.contractId === contractId);
  if (!contract) throw notFoundProblem('Contract not found');
  return contract;
}

/** The contract (with its rate) in force on a date for a service, or null. */
export async function rateInForce(scope: TenantScope, clientId: string, serviceCode: string | undefined, date: string) {
  const doc = await clientModel.or404(scope, clientId);
  const contract = contractInForceOn(doc.contracts, date, serviceCode);
  return { date, serviceCode: serviceCode ?? null, contract: contract ? contractView(contract, clientId) : null };
}
