// GET /health: liveness. The process answers, and no projection has been failing for longer than
// LIMITS.projections.unhealthyAfterFailedSeconds: a projection retries transient failures on its own, so one that
// is still failing after that long needs a restart or an operator, and a supervisor should see it.
import type { AppServices } from '../../../services.js';
import { ProblemError } from '../../../problems.js';
import { LIMITS } from '../../../limits.js';

export async function health(services: AppServices): Promise<{ status: 'ok' }> {
  // Another process (role 'projector') would run the projections; this one has none failing of its own.
  if (services.config.role === 'api') return { status: 'ok' };
  const limitMs = LIMITS.projections.unhealthyAfterFailedSeconds * 1000;
  const now = services.now().getTime();
  const failing = (await services.projections.status()).filter((s) => s.failedSince && now - Date.parse(s.failedSince) > limitMs);
  if (failing.length === 0) return { status: 'ok' };
  throw new ProblemError(
    503,
    'projection-failed',
    'Service Unavailable',
    `Projection ${failing.map((s) => s.name).join(', ')} has been failing for more than ${LIMITS.projections.unhealthyAfterFailedSeconds} s; see /sistema/proyecciones`,
    { 'Retry-After': String(LIMITS.projections.leaseRenewSeconds) },
    undefined,
    { projections: failing.map((s) => ({ name: s.name, failedSince: s.failedSince, error: s.error })) },
  );
}
