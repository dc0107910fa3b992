// One round's operations that span streams, each a single request to the service, spread at random over a window so
// that many are in flight at any moment: sessions scheduled (a seat claim, then the session), started (running-session,
// payer, machine and dialyzer claims) and ended (machine hours, dialyzer use, payer consumption, the kit's supplies), stock
// transfers, serialized dialyzer issues, registrations (pairs racing for the
// same document among them) and invitations. Each keeps its outcome: acknowledged, refused, or interrupted.
import type { Api, Json, Outcome } from './api.js';
import { nextDocument, registrationBody, startBody, type Material, type ReadySession } from './material.js';
import type { Company } from './seed.js';

export type OpKind =
  | 'session-schedule'
  | 'session-start'
  | 'session-end'
  | 'transfer'
  | 'serialized-issue'
  | 'registration'
  | 'registration-race'
  | 'invitation';

export interface Op {
  kind: OpKind;
  method: string;
  path: string;
  body: Json;
  /** When it is sent, ms after the round's operations begin. */
  atMs: number;
  /** The session it acts on (starts and ends). */
  session?: ReadySession;
  /** Set once sent; then the outcome once it settled. */
  sent: boolean;
  outcome?: Outcome;
}

export const acknowledged = (op: Op): boolean => op.outcome?.answered === true && op.outcome.status < 300;
export const interrupted = (op: Op): boolean => op.sent && op.outcome?.answered === false;

export interface RoundCounts {
  schedules: number;
  starts: number;
  ends: number;
  transfers: number;
  issues: number;
  registrations: number;
  races: number;
  invitations: number;
}

export const DEFAULT_COUNTS: RoundCounts = {
  schedules: 6,
  starts: 6,
  ends: 6,
  transfers: 20,
  issues: 12,
  registrations: 20,
  races: 6,
  invitations: 4,
};

let serials = 0;
let invitations = 0;

/** The round's operations, each at a random moment of the window. */
export function planOperations(
  company: Company,
  material: Material,
  counts: RoundCounts,
  windowMs: number,
  random: () => number,
  today: string,
): Op[] {
  const ops: Op[] = [];
  const at = () => Math.floor(random() * windowMs);
  const add = (kind: OpKind, path: string, body: Json, extra: Partial<Op> = {}) =>
    ops.push({ kind, method: 'POST', path, body, atMs: at(), sent: false, ...extra });
  for (const s of material.toStart) add('session-start', `/dialisis/sesiones/${s.sessionId}/inicio`, startBody(s, company), { session: s });
  for (const s of material.toEnd) add('session-end', `/dialisis/sesiones/${s.sessionId}/fin`, {}, { session: s });
  const patientsOfRound = [...material.toStart, ...material.toEnd].map((s) => s.patientId);
  for (let k = 0; k < counts.schedules; k++)
    add('session-schedule', '/dialisis/sesiones', {
      patientId: patientsOfRound[k % patientsOfRound.length],
      date: today,
      shiftId: material.scheduleShiftId,
      kind: 'extra',
      reason: 'Crash harness',
      requestedBy: company.physicianStaffId,
    });
  const [a, b] = company.warehouses;
  for (let k = 0; k < counts.transfers; k++) {
    const [from, to] = random() < 0.5 ? [a, b] : [b, a];
    add('transfer', `/productos/${company.supplyId}/transferencias`, {
      fromWarehouseId: from,
      toWarehouseId: to,
      quantity: 1 + Math.floor(random() * 3),
    });
  }
  const patients = [...material.toStart, ...material.toEnd].map((s) => s.patientId);
  for (let k = 0; k < counts.issues; k++) {
    const serial = `FX-CR-${Date.now()}-${++serials}`;
    add('serialized-issue', `/productos/${company.dialyzerProductId}/salidas`, {
      warehouseId: a,
      quantity: 1,
      patientId: patients[k % patients.length],
      equipment: { serial, surfaceM2: 1.8, flux: 'high', membrane: 'Helixone', baselineTcvMl: 110 },
    });
  }
  for (let k = 0; k < counts.registrations; k++) add('registration', '/pacientes', registrationBody(nextDocument()));
  for (let k = 0; k < counts.races; k++) {
    const document = nextDocument();
    const atMs = at();
    // Both sent at the same moment: the guard lets one of them have the document.
    for (let n = 0; n < 2; n++)
      ops.push({ kind: 'registration-race', method: 'POST', path: '/pacientes', body: registrationBody(document), atMs, sent: false });
  }
  for (let k = 0; k < counts.invitations; k++) {
    const email = `crash-${Date.now()}-${++invitations}@example.org`;
    add('invitation', '/usuarios', { email, name: 'Enfermera Crash', roles: ['nurse'] });
  }
  return ops;
}

/** When the kill lands: once this many operations were answered (so others are in flight), or at `latestMs` at the latest. */
export interface KillPoint {
  afterAnswers: number;
  latestMs: number;
}

/**
 * Sends each operation at its moment and calls `kill` at the kill point; operations not sent by then never are.
 * Resolves once every sent one has settled (answered, or failed when the connection died). Answers the kill's time.
 */
export async function runOperations(api: Api, ops: Op[], point: KillPoint, kill: () => Promise<void>): Promise<number> {
  const began = Date.now();
  const settled: Promise<void>[] = [];
  const timers: NodeJS.Timeout[] = [];
  let answered = 0;
  let reached: () => void = () => {};
  const killPoint = new Promise<void>((resolve) => {
    reached = resolve;
    timers.push(setTimeout(resolve, point.latestMs));
  });
  for (const op of ops) {
    timers.push(
      setTimeout(() => {
        op.sent = true;
        settled.push(
          api.attempt(op.method, op.path, op.body).then((outcome) => {
            op.outcome = outcome;
            if (outcome.answered && ++answered >= point.afterAnswers) reached();
          }),
        );
      }, op.atMs),
    );
  }
  await killPoint;
  for (const t of timers) clearTimeout(t);
  await kill();
  const killedAtMs = Date.now() - began;
  await Promise.all(settled);
  return killedAtMs;
}
