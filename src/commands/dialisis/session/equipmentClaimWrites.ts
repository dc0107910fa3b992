// What the reconciliation of session claims reads and writes: the records (and payer units) the read models show held by a session
// (its facts, loaded outside src/commands), whether that session's own stream has started, and the release of each kind of claim.
import type { CommandContext } from '../../handleCommand.js';
import { cancelMachineUse } from '../../monitores/machineWrites.js';
import { releaseDialyzerReservation } from '../../filtros-dialisis/dialyzerWrites.js';
import { releaseBloodlineReservation } from '../../lineas/bloodlineWrites.js';
import type { AppServices } from '../../../services.js';
import { releaseAuthorizationUnit } from '../../clientes/payerUnitWrites.js';
import { sessionStream } from './sessionEvents.js';

export type ClaimKind = 'machine' | 'dialyzer' | 'arterial' | 'venous' | 'payer-authorization';

/** A record a session holds, as the read model shows it. */
export interface SessionClaim {
  kind: ClaimKind;
  id: string;
  sessionId: string;
  claimedAt: string;
}

/** What the reconciliation reads from the read models (src/facts/dialisis/claimFactLoader.ts): candidates only. */
export interface SessionClaimFacts {
  /** Read from the companies model (eventual): every company's id. */
  companyIds: () => Promise<string[]>;
  /** Read from the machines, dialyzers, bloodlines and payer-authorizations models (eventual): the records held by a session. */
  sessionClaims: (tenantId: string) => Promise<SessionClaim[]>;
}

export type LoadSessionClaimFacts = (services: AppServices) => SessionClaimFacts;

/**
 * The machines the session's own stream recorded (its start and any change mid-session: the main events the claims
 * were taken for), or null when it never started.
 */
export async function sessionMachines(services: AppServices, tenantId: string, sessionId: string): Promise<Set<string> | null> {
  const events = await services.events.readStream(sessionStream(tenantId, sessionId));
  if (!events.some((e) => e.type === 'SessionStarted')) return null;
  const recorded = events.filter((e) => e.type === 'SessionStarted' || e.type === 'MachineChanged');
  return new Set(recorded.map((e) => (e.data as { machineId: string }).machineId));
}

/** Gives the claim back; each decider decides nothing when the session no longer holds the record. */
export async function releaseSessionClaim(services: AppServices, ctx: CommandContext, claim: SessionClaim, reason: string): Promise<void> {
  const data = { sessionId: claim.sessionId, reason };
  if (claim.kind === 'machine') await cancelMachineUse(services, ctx, claim.id, data);
  else if (claim.kind === 'dialyzer') await releaseDialyzerReservation(services, ctx, claim.id, data);
  else if (claim.kind === 'payer-authorization') await releaseAuthorizationUnit(services, ctx, claim.id, data);
  else await releaseBloodlineReservation(services, ctx, claim.kind, claim.id, data);
}
