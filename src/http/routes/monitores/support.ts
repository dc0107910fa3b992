// What the /monitores routes share: params, the 404, the answer after a write.
import { problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import type { HttpResult, RequestContext } from '../../routeTypes.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { machineAfterWrite, machineWithMaintenance } from '../../../queries/monitores/machines.js';
import type { MachineDoc } from '../../../projections/monitores/machineDoc.js';
import type { TenantScope } from '../../../queries/tenantScope.js';
import { IdSchema } from '../shared/fieldSchemas.js';

export type IdParams = { id: string };
export const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
export const notFound404 = problem("No such machine in the selected company (another company's machine is reported the same way)");

/** The machine after a write, with its maintenance status (see recordAnswer). */
const machineRecord = {
  latest: machineAfterWrite,
  view: (doc: MachineDoc, scope: TenantScope) => machineWithMaintenance(scope, doc),
  location: (id: string) => `/monitores/${id}`,
};
export const machineAnswer = (ctx: RequestContext, id: string, result: CommandResult<unknown>, status = 200): Promise<HttpResult> =>
  recordAnswer(ctx, machineRecord, id, result, status);
