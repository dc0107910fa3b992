// Claims whose main event never came (architecture.md): a session start claims machine, dialyzer and bloodlines first
// and appends SessionStarted last; a crash in between leaves records held by a session that never started. This
// releases them once the grace period has passed; it runs at start and periodically (sessionClaimsReconciliationTask).
// A machine change mid-session claims the new machine before MachineChanged: a crash there leaves one the session never recorded.
import type { CommandContext } from '../../handleCommand.js';
import { newId } from '../../eventIds.js';
import { LIMITS } from '../../../limits.js';
import type { AppServices } from '../../../services.js';
import {
  releaseSessionClaim,
  sessionMachines,
  type LoadSessionClaimFacts,
  type SessionClaim,
  type SessionClaimFacts,
} from './equipmentClaimWrites.js';

/** What the reconciliation is run with: the services its releases write through, and its facts. */
export interface ReconciliationDeps {
  services: AppServices;
  facts: SessionClaimFacts;
}

export const RECONCILIATION_ACTOR = 'process:session-claims-reconciliation';
export const ORPHANED_CLAIM = 'orphaned-claim';

/** Orphaned: the session never recorded its start, and the claim is older than the grace a start needs to finish. */
export function isOrphanedClaim(claimedAt: string, sessionStarted: boolean, at: string, graceSeconds: number): boolean {
  return !sessionStarted && Date.parse(at) - Date.parse(claimedAt) > graceSeconds * 1000;
}

function contextFor(tenantId: string, at: string): CommandContext {
  return {
    tenantId,
    actor: RECONCILIATION_ACTOR,
    sessionId: null,
    correlationId: newId(),
    ip: null,
    userAgent: null,
    reason: ORPHANED_CLAIM,
    at,
  };
}

async function reconcileCompany({ services, facts }: ReconciliationDeps, tenantId: string, at: string): Promise<SessionClaim[]> {
  const released: SessionClaim[] = [];
  const recorded = new Map<string, Set<string> | null>();
  for (const claim of await facts.sessionClaims(tenantId)) {
    if (!isOrphanedClaim(claim.claimedAt, false, at, LIMITS.sessionClaims.orphanGraceSeconds)) continue; // still within grace
    // The read model only points at candidates: the session's own stream decides.
    if (!recorded.has(claim.sessionId)) recorded.set(claim.sessionId, await sessionMachines(services, tenantId, claim.sessionId));
    const machines = recorded.get(claim.sessionId);
    // Held once started; a machine only if the session recorded it (a change mid-session that never landed did not).
    if (machines && (claim.kind !== 'machine' || machines.has(claim.id))) continue;
    try {
      await releaseSessionClaim(services, contextFor(tenantId, at), claim, ORPHANED_CLAIM);
      released.push(claim);
    } catch (err) {
      // One record that cannot be released must not keep the others held; the next run tries it again.
      services.logger.error('an orphaned session claim could not be released', { tenantId, ...claim, error: String(err) });
    }
  }
  return released;
}

/** Releases every claim held by a session that never started, of one company or of all; answers what it released. */
export async function releaseOrphanedSessionClaims(deps: ReconciliationDeps, tenantId?: string): Promise<{ released: SessionClaim[] }> {
  const { services } = deps;
  const at = services.now().toISOString();
  const released: SessionClaim[] = [];
  for (const id of tenantId ? [tenantId] : await deps.facts.companyIds()) released.push(...(await reconcileCompany(deps, id, at)));
  if (released.length > 0) services.logger.warn('released equipment claims of sessions that never started', { count: released.length });
  return { released };
}

export const SESSION_CLAIMS_RECONCILIATION = 'session-claims-reconciliation';

/** The reconciliation as the service runs it: at start, then every LIMITS.sessionClaims.reconcileEverySeconds. */
export const sessionClaimsReconciliationTask = (loadFacts: LoadSessionClaimFacts) => ({
  name: SESSION_CLAIMS_RECONCILIATION,
  reconciliation: true,
  everyMs: LIMITS.sessionClaims.reconcileEverySeconds * 1000,
  run: async (services: AppServices): Promise<void> => {
    await releaseOrphanedSessionClaims({ services, facts: loadFacts(services) });
  },
});
