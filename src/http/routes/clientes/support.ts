// What the /clientes routes share: params, the 404s, the answers after a write.
import { problem } from '../../commonSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import type { HttpResult, RequestContext } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { authorizationAfterWrite, clientAfterWrite, clientView } from '../../../queries/clientes/clients.js';
import { authorizationWithStatus } from '../../../queries/clientes/authorizations.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { tenantCtx } from '../shared/recordSupport.js';

export type IdParams = { id: string };
export type ContractParams = { id: string; contractId: string };
export type AuthParams = { id: string; authId: string };
const params = (...names: string[]) => ({
  type: 'object',
  additionalProperties: false,
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, IdSchema])),
});
export const Params = params('id');
export const ContractIdParams = params('id', 'contractId');
export const AuthIdParams = params('id', 'authId');
export const notFound404 = problem(
  "No such client (contract, authorization) in the selected company (another company's is reported the same way)",
);

export async function clientAnswer(ctx: RequestContext, id: string, result: CommandResult<unknown>, status = 200): Promise<HttpResult> {
  const doc = await clientAfterWrite(tenantCtx(ctx), id, result);
  const position = result.position ?? BigInt(doc._position);
  return {
    status,
    body: clientView(doc),
    headers: writeHeaders({ revision: doc.revision, position, ...(status === 201 ? { location: `/clientes/${id}` } : {}) }),
  };
}

export async function authorizationAnswer(
  ctx: RequestContext,
  clientId: string,
  id: string,
  result: CommandResult<unknown>,
  status = 200,
): Promise<HttpResult> {
  const scope = tenantCtx(ctx);
  const doc = await authorizationAfterWrite(scope, id, result);
  const position = result.position ?? BigInt(doc._position);
  const location = status === 201 ? `/clientes/${clientId}/autorizaciones/${id}` : undefined;
  return {
    status,
    body: await authorizationWithStatus(scope, doc),
    headers: writeHeaders({ revision: doc.revision, position, ...(location ? { location } : {}) }),
  };
}
