// One round's operations that span streams, each a single request to the service, spread at random over a window so
// that many are in flight at any moment: session starts (machine and payer claims) and ends (machine hours, payer
// consumption, the kit's supplies), stock transfers, serialized dialyzer issues, registrations (pairs racing for the
// same document among them) and invitations. Each keeps its outcome: acknowledged, refused, or interrupted.
import type { Api, Json, Outcome } from './api.js';
import { nextDocument, registrationBody, startBody, type Material, type ReadySession } from './material.js';
import type { Company } from './seed.js';

export type OpKind =
  'session-start' | 'session-end' | 'transfer' | 'serialized-issue' | 'registration' | 'registration-race' | 'invitation';

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
  starts: number;
  ends: number;
  transfers: number;
  issues: number;
  registrations: number;
  races: number;
  invitations: number;
}

export const DEFAULT_COUNTS: RoundCounts = { starts: 6, ends: 6, transfers: 12, issues: 8, registrations: 12, races: 4, invitations: 4 };

let serials = 0;
let invitations = 0;

/** The round's operations, each at a random moment of the window. */
export function planOperations(company: Company, material: Material, counts: RoundCounts, windowMs: number, random: () => number): Op[] {
  const ops: Op[] = [];
  const at = () => Math.floor(random() * windowMs);
  const add = (kind: OpKind, path: string, body: Json, extra: Partial<Op> = {}) =>
    ops.push({ kind, method: 'POST', path, body, atMs: at(), sent: false, ...extra });
  for (const s of material.toStart) add('session-start', `/dialisis/sesiones/${s.sessionId}/inicio`, startBody(s, company), { session: s });
  for (const s of material.toEnd) add('session-end', `/dialisis/sesiones/${s.sessionId}/fin`, {}, { session: s });
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

/**
 * Sends each operation at its moment and calls `kill` at `killAtMs`; operations not sent by then never are. Resolves
 * once every sent one has settled (answered, or failed when the connection died).
 */
export async function runOperations(api: Api, ops: Op[], killAtMs: number, kill: () => Promise<void>): Promise<void> {
  const settled: Promise<void>[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (const op of ops) {
    timers.push(
      setTimeout(() => {
        op.sent = true;
        settled.push(
          api.attempt(op.method, op.path, op.body).then((outcome) => {
            op.outcome = outcome;
          }),
        );
      }, op.atMs),
    );
  }
  await new Promise((r) => setTimeout(r, killAtMs));
  for (const t of timers) clearTimeout(t);
  await kill();
  await Promise.all(settled);
}
