// Who may sign clinical records (domain.md 8: "clinical signatures require an active, unexpired licence"). Pure: the
// lookup (maySign.ts) hands it the user's staff record and position as the read models have them.

export const SIGNING_REASONS = [
  'no-staff-record',
  'staff-not-yet-hired',
  'staff-terminated',
  'position-missing',
  'position-inactive',
  'position-not-clinical',
  'licence-missing',
  'licence-expired',
  'position-not-physician',
] as const;
export type SigningReason = (typeof SIGNING_REASONS)[number];

export interface SigningStaff {
  hireDate: string;
  terminationDate?: string;
  licence?: { expiresOn: string };
}

export interface SigningPosition {
  status: 'active' | 'inactive';
  clinical: boolean;
  licenceRequired: boolean;
  /** A physician's position: only its holders validate sessions and issue prescriptions. */
  physician?: boolean;
}

/** What the act needs: any clinical signature, or a physician's (validating a session, prescribing). */
export type SigningAct = 'clinical' | 'physician';

export interface SigningVerdict {
  allowed: boolean;
  reasons: SigningReason[];
}

/**
 * The verdict on calendar day `day` (YYYY-MM-DD): active staff (hired on or before the day, and the day before the
 * termination date, which is the first day without employment) holding an active clinical position, with a licence
 * valid through its expiry date when the position requires one; a physician's act also needs a physician's position.
 * Every failed condition is a reason.
 */
export function signingVerdict(
  staff: SigningStaff | null,
  position: SigningPosition | null,
  day: string,
  act: SigningAct = 'clinical',
): SigningVerdict {
  if (!staff) return { allowed: false, reasons: ['no-staff-record'] };
  const reasons: SigningReason[] = [];
  if (staff.hireDate > day) reasons.push('staff-not-yet-hired');
  if (staff.terminationDate !== undefined && staff.terminationDate <= day) reasons.push('staff-terminated');
  if (!position) reasons.push('position-missing');
  else {
    if (position.status !== 'active') reasons.push('position-inactive');
    if (!position.clinical) reasons.push('position-not-clinical');
    if (position.licenceRequired && !staff.licence) reasons.push('licence-missing');
    if (position.licenceRequired && staff.licence && staff.licence.expiresOn < day) reasons.push('licence-expired');
    if (act === 'physician' && position.physician !== true) reasons.push('position-not-physician');
  }
  return { allowed: reasons.length === 0, reasons };
}
