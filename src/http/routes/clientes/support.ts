// What the /clientes routes share: params, the 404s, the answers after a write.
import { problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import type { HttpResult, RequestContext } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { authorizationAfterWrite, clientAfterWrite, clientView } from '../../../queries/clientes/clients.js';
import { authorizationWithStatus } from '../../../queries/clientes/authorizations.js';
import { IdSchema } from '../shared/fieldSchemas.js';

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

/** The client after a write (see recordAnswer); a 201 points at the client. */
const clientRecord = { latest: clientAfterWrite, view: clientView, location: (id: string) => `/clientes/${id}` };
export const clientAnswer = (ctx: RequestContext, id: string, result: CommandResult<unknown>, status = 200): Promise<HttpResult> =>
  recordAnswer(ctx, clientRecord, id, result, status);

/** The authorization after a write, with its status; a 201 points at it under its client. */
export const authorizationAnswer = (
  ctx: RequestContext,
  clientId: string,
  id: string,
  result: CommandResult<unknown>,
  status = 200,
): Promise<HttpResult> =>
  recordAnswer(
    ctx,
    {
      latest: authorizationAfterWrite,
      view: (doc, scope) => authorizationWithStatus(scope, doc),
      location: (authId) => `/clientes/${clientId}/autorizaciones/${authId}`,
    },
    id,
    result,
    status,
  );
