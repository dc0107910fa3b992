// After a restart: what a clinic would do next must work. A document whose registration was interrupted after its claim
// is taken over by a new registration once the grace period passed; an interrupted invitation can be sent again; every
// registered patient reaches the webhook endpoint (deliveries resume after the crash).
import type { Api } from './api.js';
import type { EventLog } from './eventLog.js';
import { orphanedDocuments, staleRunningClaims } from './claimInvariants.js';
import { registrationBody, sessionFor, shiftFor, startBody } from './material.js';
import type { Company } from './seed.js';
import { interrupted, type Op } from './operations.js';
import type { Receiver } from './receiver.js';

/** LIMITS.documentGuard.orphanedClaimGraceSeconds, as the service counts it. */
const DOCUMENT_GRACE_MS = 10 * 60 * 1000;

export async function takeOverOrphanedDocuments(api: Api, log: EventLog): Promise<{ takenOver: number; violations: string[] }> {
  const violations: string[] = [];
  let takenOver = 0;
  for (const orphan of orphanedDocuments(log)) {
    if (api.now().getTime() - Date.parse(orphan.claimedAt) <= DOCUMENT_GRACE_MS) continue; // within grace: still its claim
    const answer = await api.call('POST', '/pacientes', registrationBody(orphan.documentNumber));
    if (answer.status === 201) takenOver++;
    else
      violations.push(
        `document ${orphan.documentNumber} claimed by ${orphan.patientId}, who never appeared, could not be registered again: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
      );
  }
  return { takenOver, violations };
}

export async function reinviteInterrupted(api: Api, log: EventLog, ops: Op[]): Promise<string[]> {
  const violations: string[] = [];
  const offered = new Set(log.ofType('MembershipOffered').map((e) => e.data.email as string));
  for (const op of ops.filter((o) => o.kind === 'invitation' && interrupted(o))) {
    if (offered.has(op.body.email as string)) continue; // it landed before the kill
    const answer = await api.call('POST', '/usuarios', op.body);
    if (answer.status >= 300)
      violations.push(
        `the interrupted invitation of ${String(op.body.email)} could not be sent again: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
      );
  }
  return violations;
}

export function undeliveredViolations(log: EventLog, receiver: Receiver): string[] {
  return log
    .ofType('PatientRegistered')
    .filter((e) => !receiver.records.has(e.id))
    .map((e) => `patient ${e.id} was registered but its webhook was never delivered`);
}

/** Starts (and ends) a new session for up to `max` patients whose running-session claim was left stale: each must start. */
export async function startAfterStaleClaims(
  api: Api,
  log: EventLog,
  company: Company,
  round: number,
  max: number,
): Promise<{ started: number; violations: string[] }> {
  const stale = staleRunningClaims(log).slice(0, max);
  const violations: string[] = [];
  if (stale.length === 0) return { started: 0, violations };
  const shiftId = await shiftFor(api, company, `Turno recuperación ${round}`, stale.length + 2);
  let started = 0;
  for (const { patientId, sessionId: holder } of stale) {
    const next = await sessionFor(api, company, shiftId, patientId, round);
    const path = `/dialisis/sesiones/${next.sessionId}`;
    const start = await api.call('POST', `${path}/inicio`, startBody(next, company));
    if (start.status !== 200) {
      violations.push(
        `patient ${patientId}, whose running-session claim session ${holder} left behind, could not start again: ${start.status} ${JSON.stringify(start.body).slice(0, 200)}`,
      );
      continue;
    }
    started++;
    const end = await api.call('POST', `${path}/fin`, {});
    if (end.status !== 200) violations.push(`session ${next.sessionId} started after a stale claim could not end: ${end.status}`);
  }
  return { started, violations };
}
