// The one rule the payer's bill and the authorization's units follow (issue 21 item 18): domain.md 8 says a completed
// session consumes one unit and a cancelled or no-show one none, and is silent on interruptions; so a session is paid
// when its treatment ended, or when it was interrupted after delivering some treatment. Pure, shared by the process
// manager that consumes units and by the monthly payer report.

const ENDED = new Set(['ended', 'signed', 'validated']);

/**
 * Is this session paid by its payer (billed, and one authorization unit consumed)? An interrupted session stays one once
 * signed: `interrupted` says so whatever its status now, and only its treatment minutes make it paid.
 */
export function paidByPayer(status: string, effectiveMinutes: number | null, interrupted = status === 'interrupted'): boolean {
  if (interrupted) return (effectiveMinutes ?? 0) > 0 && (status === 'interrupted' || ENDED.has(status));
  return ENDED.has(status);
}

/** A session the nurse has signed: an unsigned record is not yet billed (the report flags it). */
export const isSigned = (status: string): boolean => status === 'signed' || status === 'validated';
