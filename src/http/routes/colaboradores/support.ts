// What every Colaboradores route shares: the staff record's route kit (its 404 and write answer), the user-link check.
import { ProblemError } from '../../../problems.js';
import { staffView } from '../../../projections/colaboradores/staffDoc.js';
import { membershipIn } from '../../../queries/platform/memberships.js';
import { staffModel } from '../../../queries/colaboradores/staffRecords.js';
import type { RequestContext } from '../../routeTypes.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { READ, StaffView, TAG, WRITE } from './schemas.js';

/** Staff reads are in the access audit (staff, staffList). */
export const staff = recordKit({
  tag: TAG,
  base: '/colaboradores',
  read: READ,
  write: WRITE,
  noun: 'staff record',
  model: staffModel,
  view: staffView,
  viewSchema: StaffView,
  auditAs: 'staff',
});

/** A staff record links only to a member of its own company: anyone else answers 422 naming userId. */
export async function requireMember(ctx: RequestContext, userId: string, pointer: string): Promise<void> {
  const member = await membershipIn(ctx.services, userId, tenantCtx(ctx).auth.tenantId);
  if (member) return;
  const detail = 'userId must be a user account that belongs to this company';
  throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', detail, {}, [{ pointer, message: detail }]);
}
