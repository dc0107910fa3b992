// What every Colaboradores route shares: params, the not-found answer, the answer of a write, the user-link check.
import type { CommandResult } from '../../../commands/handleCommand.js';
import { ProblemError } from '../../../problems.js';
import { staffView } from '../../../projections/colaboradores/staffDoc.js';
import { membershipIn } from '../../../queries/platform/memberships.js';
import { staffAfterWrite } from '../../../queries/colaboradores/staffRecords.js';
import { problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import type { HttpResult, RequestContext } from '../../routeTypes.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { tenantCtx } from '../shared/recordSupport.js';

export type IdParams = { id: string };
export const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
export const notFound404 = problem("No such staff member in the selected company (another company's record is reported the same way)");

/** The staff record as the read model now has it, with ETag and position; a 201 points at the record. */
const staffRecord = { latest: staffAfterWrite, view: staffView, location: (id: string) => `/colaboradores/${id}` };
export const staffAnswer = (ctx: RequestContext, staffId: string, result: CommandResult<unknown>, status: number): Promise<HttpResult> =>
  recordAnswer(ctx, staffRecord, staffId, result, status);

/** A staff record links only to a member of its own company: anyone else answers 422 naming userId. */
export async function requireMember(ctx: RequestContext, userId: string, pointer: string): Promise<void> {
  const member = await membershipIn(ctx.services, userId, tenantCtx(ctx).auth.tenantId);
  if (member) return;
  const detail = 'userId must be a user account that belongs to this company';
  throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', detail, {}, [{ pointer, message: detail }]);
}
