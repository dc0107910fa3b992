// What every Colaboradores route shares: params, the not-found answer, the answer of a write.
import type { CommandResult } from '../../../commands/handleCommand.js';
import { staffView } from '../../../projections/colaboradores/staffDoc.js';
import { staffAfterWrite } from '../../../queries/colaboradores/staffRecords.js';
import { problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import type { HttpResult, RequestContext } from '../../routeTypes.js';
import { IdSchema } from '../shared/fieldSchemas.js';

export type IdParams = { id: string };
export const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
export const notFound404 = problem("No such staff member in the selected company (another company's record is reported the same way)");

/** The staff record as the read model now has it, with ETag and position; a 201 points at the record. */
const staffRecord = { afterWrite: staffAfterWrite, view: staffView, location: (id: string) => `/colaboradores/${id}` };
export const staffAnswer = (ctx: RequestContext, staffId: string, result: CommandResult<unknown>, status: number): Promise<HttpResult> =>
  recordAnswer(ctx, staffRecord, staffId, result, status);
