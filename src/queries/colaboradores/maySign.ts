// For other groups (nursing notes, sessions): may this user sign clinical records of this company at this instant (as a
// physician, for a validation or a prescription)?
import type { TenantScope } from '../tenantScope.js';
import { ProblemError } from '../../problems.js';
import { companyDay } from '../empresas/companyCalendar.js';
import { jobPositions } from '../cargos-laborales/jobPositions.js';
import { signingVerdict, type SigningAct, type SigningVerdict } from './signingRule.js';
import { staffRecords } from './staffRecords.js';

export async function maySignClinicalRecords(
  scope: TenantScope,
  userId: string,
  at: Date | string,
  act: SigningAct = 'clinical',
): Promise<SigningVerdict & { staffId: string | null }> {
  const tenantId = scope.auth.tenantId;
  const staff = await staffRecords(scope).findOne(tenantId, { userId });
  const position = staff ? await jobPositions(scope).get(tenantId, staff.positionId) : null;
  const instant = typeof at === 'string' ? new Date(at) : at;
  if (!Number.isFinite(instant.getTime()))
    throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'at is not a valid instant');
  // A licence is valid through its expiry day in the company's time zone.
  const day = await companyDay(scope, instant);
  return { ...signingVerdict(staff, position, day, act), staffId: staff?.id ?? null };
}
