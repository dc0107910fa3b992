// Invariants of the claims a session start takes (judged on the log after the restart and the reconciliation): every
// machine and payer reservation is held by a session that started and has not ended; a patient document or a running-
// session claim held by a record that does not hold it is listed, for a later write to take it over (recoveryChecks.ts).
import type { EventLog, LoggedEvent } from './eventLog.js';

const SESSION = 'dialysisSession';

/** Started, and not ended, interrupted or cancelled: a session that holds its claims. */
export function holdsClaims(log: EventLog, sessionId: string): boolean {
  const types = new Set(log.stream(SESSION, sessionId).map((e) => e.type));
  return types.has('SessionStarted') && !types.has('SessionEnded') && !types.has('SessionInterrupted') && !types.has('SessionCancelled');
}

const sessionOf = (e: LoggedEvent): string => e.data.sessionId as string;

/** The session holding a single-holder claim stream after its events: claimed by one, released by the same one. */
function holderOf(events: LoggedEvent[], claimed: string[], released: string[]): string | null {
  let holder: string | null = null;
  for (const e of events) {
    if (claimed.includes(e.type)) holder = sessionOf(e);
    else if (released.includes(e.type) && sessionOf(e) === holder) holder = null;
  }
  return holder;
}

/** Machines and dialyzers: each one claimed is held by a running session that started on it. */
export function equipmentClaimViolations(log: EventLog): string[] {
  const out: string[] = [];
  const kinds = [
    { category: 'machine', field: 'machineId', claimed: ['MachineUseStarted'], released: ['MachineUseEnded', 'MachineUseCancelled'] },
    {
      category: 'dialyzer',
      field: 'dialyzerId',
      claimed: ['DialyzerReservedForSession'],
      released: ['DialyzerUsed', 'DialyzerReservationReleased'],
    },
  ];
  for (const { category, field, claimed, released } of kinds) {
    for (const [id, events] of log.streams(category)) {
      const holder = holderOf(events, claimed, released);
      if (holder === null) continue;
      const started = log.stream(SESSION, holder).find((e) => e.type === 'SessionStarted');
      if (!holdsClaims(log, holder)) out.push(`${category} ${id} is held by session ${holder}, which does not hold it (not running)`);
      else if (started?.data[field] !== id)
        out.push(`${category} ${id} is held by session ${holder}, whose start names ${String(started?.data[field])}`);
    }
  }
  return out;
}

/**
 * Patients whose running-session claim is held by a session that is not running (its release never came, or its start
 * never did): by design such a claim is taken over by the patient's next start (runningSessionDecider.ts), which the
 * recovery checks try.
 */
export function staleRunningClaims(log: EventLog): { patientId: string; sessionId: string }[] {
  const out: { patientId: string; sessionId: string }[] = [];
  for (const [patientId, events] of log.streams('patientRunningSession')) {
    const holder = holderOf(events, ['RunningSessionClaimed'], ['RunningSessionReleased']);
    if (holder !== null && !holdsClaims(log, holder)) out.push({ patientId, sessionId: holder });
  }
  return out;
}

/** A seat of a shift's day is held by a session that was scheduled (the reconciliation gives back the others). */
export function seatViolations(log: EventLog): string[] {
  const out: string[] = [];
  for (const [day, events] of log.streams('shiftDay')) {
    const held = new Set<string>();
    for (const e of events) {
      if (e.type === 'SeatClaimed') held.add(sessionOf(e));
      if (e.type === 'SeatReleased') held.delete(sessionOf(e));
    }
    for (const sessionId of held)
      if (!log.has(SESSION, sessionId, 'SessionScheduled'))
        out.push(`shift day ${day} holds a seat for session ${sessionId}, which was never scheduled`);
  }
  return out;
}

export interface AuthorizationFold {
  reserved: Set<string>;
  consumed: Map<string, number>;
}

export function foldAuthorization(events: LoggedEvent[]): AuthorizationFold {
  const reserved = new Set<string>();
  const consumed = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'AuthorizationReserved') reserved.add(sessionOf(e));
    if (e.type === 'AuthorizationReleased') reserved.delete(sessionOf(e));
    if (e.type === 'AuthorizationConsumed') {
      reserved.delete(sessionOf(e));
      consumed.set(sessionOf(e), (consumed.get(sessionOf(e)) ?? 0) + 1);
    }
  }
  return { reserved, consumed };
}

export function payerReservationViolations(log: EventLog): string[] {
  const out: string[] = [];
  for (const [authorizationId, events] of log.streams('payerAuthorization')) {
    const { reserved, consumed } = foldAuthorization(events);
    for (const sessionId of reserved)
      if (!holdsClaims(log, sessionId))
        out.push(`authorization ${authorizationId} holds a unit reserved for session ${sessionId}, which is not running`);
    for (const [sessionId, n] of consumed)
      if (n > 1) out.push(`authorization ${authorizationId} consumed ${n} units for session ${sessionId} (once expected)`);
  }
  return out;
}

export interface OrphanedDocument {
  documentNumber: string;
  patientId: string;
  claimedAt: string;
}

/** Document claims whose patient does not exist: after the grace period a new registration must take them over. */
export function orphanedDocuments(log: EventLog): OrphanedDocument[] {
  const out: OrphanedDocument[] = [];
  for (const [, events] of log.streams('patientDocument')) {
    let holder: LoggedEvent | null = null;
    for (const e of events) {
      if (e.type === 'PatientDocumentClaimed') holder = e;
      else if (e.type === 'PatientDocumentReleased' && holder?.data.patientId === e.data.patientId) holder = null;
    }
    if (holder && !log.has('patient', holder.data.patientId as string, 'PatientRegistered'))
      out.push({
        documentNumber: holder.data.documentNumber as string,
        patientId: holder.data.patientId as string,
        claimedAt: holder.data.claimedAt as string,
      });
  }
  return out;
}

/** At most one registered patient per document number. */
export function duplicateDocumentViolations(log: EventLog): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const e of log.ofType('PatientRegistered')) {
    const key = `${String(e.data.documentType)}:${String(e.data.documentNumber)}`;
    const other = seen.get(key);
    if (other && other !== e.id) out.push(`document ${key} is held by two patients: ${other} and ${e.id}`);
    seen.set(key, e.id);
  }
  return out;
}
