// What the reconciliation of session claims reads and writes: the records (and payer units) the read models show held by a session,
// whether that session's own stream has started, and the release of each kind of claim.
import type { CommandContext } from '../../handleCommand.js';
import { cancelMachineUse } from '../../monitores/machineWrites.js';
import { releaseDialyzerReservation } from '../../filtros-dialisis/dialyzerWrites.js';
import { releaseBloodlineReservation } from '../../lineas/bloodlineWrites.js';
import { LIMITS } from '../../../limits.js';
import type { AppServices } from '../../../services.js';
import { listCompanies } from '../../../queries/empresas/companies.js';
import { MACHINES, MONITORES_PROJECTION } from '../../../projections/monitores/monitoresProjection.js';
import type { MachineDoc } from '../../../projections/monitores/machineDoc.js';
import { DIALYZERS, FILTROS_PROJECTION } from '../../../projections/filtros-dialisis/filtrosProjection.js';
import type { DialyzerDoc } from '../../../projections/filtros-dialisis/dialyzerDoc.js';
import { BLOODLINES, LINEAS_PROJECTION } from '../../../projections/lineas/lineasProjection.js';
import type { BloodlineDoc } from '../../../projections/lineas/bloodlineDoc.js';
import { CLIENTES_PROJECTION, PAYER_AUTHORIZATIONS } from '../../../projections/clientes/clientesProjection.js';
import type { AuthorizationDoc } from '../../../projections/clientes/authorizationDoc.js';
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

/** Every company's id, page by page. */
export async function companyIds(services: AppServices): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await listCompanies(services, { limit: LIMITS.pagination.maxLimit, cursor });
    ids.push(...page.items.map((c) => c.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** Machines, dialyzers and bloodlines of the company in use with a session holding them. */
export async function sessionClaims(services: AppServices, tenantId: string): Promise<SessionClaim[]> {
  const options = { limit: LIMITS.sessionClaims.scanMax };
  const inUse = { status: 'in-use' };
  const [machines, dialyzers, lines, units] = await Promise.all([
    services.projections.collection<MachineDoc>(MONITORES_PROJECTION, MACHINES).find(tenantId, inUse, options),
    services.projections.collection<DialyzerDoc>(FILTROS_PROJECTION, DIALYZERS).find(tenantId, inUse, options),
    // A line in use without a reservation was used and awaits reprocessing: no session holds it.
    services.projections
      .collection<BloodlineDoc>(LINEAS_PROJECTION, BLOODLINES)
      .find(tenantId, { ...inUse, reservation: { $exists: true } }, options),
    // A payer unit reserved at a start (issue 21 item 17); its last change is the latest the reservation can be.
    services.projections
      .collection<AuthorizationDoc>(CLIENTES_PROJECTION, PAYER_AUTHORIZATIONS)
      .find(tenantId, { reserved: { $gt: 0 } }, options),
  ]);
  const claims: SessionClaim[] = [];
  for (const m of machines.items) {
    if (m.currentSession)
      claims.push({ kind: 'machine', id: m.id, sessionId: m.currentSession.sessionId, claimedAt: m.currentSession.startedAt });
  }
  for (const d of dialyzers.items) {
    if (d.reservation) claims.push({ kind: 'dialyzer', id: d.id, sessionId: d.reservation.sessionId, claimedAt: d.reservation.reservedAt });
  }
  for (const l of lines.items) {
    if (l.reservation) claims.push({ kind: l.lineType, id: l.id, sessionId: l.reservation.sessionId, claimedAt: l.reservation.reservedAt });
  }
  for (const a of units.items) {
    for (const sessionId of Object.keys(a.reservations ?? {}))
      claims.push({ kind: 'payer-authorization', id: a.id, sessionId, claimedAt: a.updatedAt });
  }
  return claims;
}

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
