// The crash harness (issue 28 item 1): the real service on a fresh data directory, seeded through the real routes; each
// round prepares its material, sends a concurrent mix of operations that span streams, kills the service with SIGKILL
// at a random moment while they are in flight, starts it again on the same directory with its clock past every grace
// period, waits for readiness and reconciliation, and checks the invariants until they hold or a bounded time passed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signIn, type Api } from './api.js';
import { acknowledgedViolations } from './acknowledgedInvariants.js';
import { duplicateDocumentViolations, equipmentClaimViolations, payerReservationViolations, seatViolations } from './claimInvariants.js';
import { readEventLog, type EventLog } from './eventLog.js';
import { prepareRound } from './material.js';
import { acknowledged, DEFAULT_COUNTS, interrupted, planOperations, runOperations, type Op, type RoundCounts } from './operations.js';
import { startReceiver, type Receiver } from './receiver.js';
import { reinviteInterrupted, startAfterStaleClaims, takeOverOrphanedDocuments, undeliveredViolations } from './recoveryChecks.js';
import { dayOf, seedCompany, type Company } from './seed.js';
import { startService, type RunningService } from './service.js';
import { freePort } from '../../../bench/processes.js';
import { authorizationCountViolations, balanceViolations, consequenceViolations, inFlightViolations } from './stockInvariants.js';

/** How far the service's clock moves at each restart: past every orphan grace (session claims 2 min, documents and seats 10 min). */
export const CLOCK_STEP_MS = 11 * 60 * 1000;

export interface CrashOptions {
  /** Rounds to run (at most, with untilInterrupted). */
  rounds: number;
  /** Stop after the round that brings the operations interrupted to this many. */
  untilInterrupted?: number;
  counts?: RoundCounts;
  /** Operations are sent at random moments of this window... */
  windowMs?: number;
  /** ...and the kill lands once a random share of them (between these fractions) was answered: others are in flight then. */
  killAfterAnsweredShare?: [number, number];
  /** How long the invariants may take to hold after the restart (processes catching up, deliveries retried). */
  settleMs?: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface RoundReport {
  round: number;
  killAtMs: number;
  sent: number;
  acknowledged: number;
  refused: number;
  interrupted: number;
  /** Orphaned document claims a later registration took over. */
  takenOver: number;
  /** Patients whose stale running-session claim a new start took over. */
  restartedAfterStaleClaim: number;
  restartMs: number;
  /** Operations in flight at the kill, by kind. */
  interruptedByKind: Partial<Record<string, number>>;
  /** Answers other than 2xx, but for the losing registration of a race (409): shown, they are no violation. */
  refusals: string[];
  violations: string[];
}

export interface CrashReport {
  seed: number;
  rounds: RoundReport[];
  operationsSent: number;
  interrupted: number;
  acknowledged: number;
  interruptedByKind: Record<string, number>;
  violations: number;
  /** Half-done operations the service repaired, as the final log shows: claims the reconciliation released (by kind). */
  releasedByReconciliation: Record<string, number>;
  documentsTakenOver: number;
  runningClaimsTakenOver: number;
}

/** mulberry32: a reproducible sequence from the printed seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function invariantViolations(
  api: Api,
  dataDir: string,
  company: Company,
  ops: Op[],
  receiver: Receiver,
  authorizations: string[],
): Promise<string[]> {
  const log = readEventLog(dataDir);
  return [
    ...(await acknowledgedViolations(api, log, ops)),
    ...equipmentClaimViolations(log),
    ...seatViolations(log),
    ...payerReservationViolations(log),
    ...duplicateDocumentViolations(log),
    ...inFlightViolations(log),
    ...consequenceViolations(log, company),
    ...(await balanceViolations(api, log, company)),
    ...(await authorizationCountViolations(api, log, company, authorizations)),
    ...undeliveredViolations(log, receiver),
  ];
}

/** Claims released as orphaned (equipmentClaimsReconciliation.ts), by the type of their release. */
function reconciliationReleases(log: EventLog): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of log.all) if (e.data.reason === 'orphaned-claim' && e.category !== 'patientDocument') out[e.type] = (out[e.type] ?? 0) + 1;
  return out;
}

/** The invariants, again and again until they hold or `settleMs` passed: what is left then is a violation. */
async function settle(check: () => Promise<string[]>, settleMs: number): Promise<string[]> {
  const until = Date.now() + settleMs;
  for (;;) {
    const violations = await check();
    if (violations.length === 0 || Date.now() > until) return violations;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function runCrashHarness(options: CrashOptions): Promise<CrashReport> {
  const counts = options.counts ?? DEFAULT_COUNTS;
  const windowMs = options.windowMs ?? 100;
  const [fewest, most] = options.killAfterAnsweredShare ?? [0.1, 0.7];
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const rand = random(seed);
  const say = options.log ?? (() => {});
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-harness-'));
  const receiver = await startReceiver();
  const port = await freePort();
  let clockOffsetMs = 0;
  let service: RunningService = await startService({ dataDir, port, clockOffsetMs });
  const reports: RoundReport[] = [];
  const reported = new Set<string>();
  const releasedByReconciliation: Record<string, number> = {};
  try {
    let api = await signIn(service);
    const company = await seedCompany(api, receiver.url);
    const authorizations: string[] = [];
    say(`crash harness: seed ${seed}, data directory ${dataDir}`);
    for (let round = 1; round <= options.rounds; round++) {
      const material = await prepareRound(api, company, round, counts);
      authorizations.push(...[...material.toStart, ...material.toEnd].map((s) => s.authorizationId));
      const ops = planOperations(company, material, counts, windowMs, rand, dayOf(api.now()));
      const dying = service;
      const afterAnswers = Math.floor((fewest + rand() * (most - fewest)) * ops.length);
      const killAtMs = await runOperations(api, ops, { afterAnswers, latestMs: windowMs + 5_000 }, () => dying.kill());

      clockOffsetMs += CLOCK_STEP_MS;
      const restarted = Date.now();
      service = await startService({ dataDir, port, clockOffsetMs });
      const restartMs = Date.now() - restarted;
      api = await signIn(service);
      const recovery = await takeOverOrphanedDocuments(api, readEventLog(dataDir));
      const reinvited = await reinviteInterrupted(api, readEventLog(dataDir), ops);
      const restarts = await startAfterStaleClaims(api, readEventLog(dataDir), company, round, 3);
      const settled = await settle(
        () => invariantViolations(api, dataDir, company, ops, receiver, authorizations),
        options.settleMs ?? 30_000,
      );
      // A violation the log keeps shows in every later round too: each is reported once, in the round it first showed.
      const violations = [...recovery.violations, ...reinvited, ...restarts.violations, ...settled].filter((v) => !reported.has(v));
      for (const v of violations) reported.add(v);
      const sent = ops.filter((o) => o.sent);
      const report: RoundReport = {
        round,
        killAtMs,
        sent: sent.length,
        acknowledged: sent.filter(acknowledged).length,
        refused: sent.filter((o) => o.outcome?.answered && !acknowledged(o)).length,
        interrupted: sent.filter(interrupted).length,
        takenOver: recovery.takenOver,
        restartedAfterStaleClaim: restarts.started,
        restartMs,
        interruptedByKind: Object.fromEntries(
          [...new Set(sent.filter(interrupted).map((o) => o.kind))].map((k) => [
            k,
            sent.filter((o) => o.kind === k && interrupted(o)).length,
          ]),
        ),
        refusals: sent
          .filter((o) => o.outcome?.answered && !acknowledged(o) && !(o.kind === 'registration-race' && o.outcome.status === 409))
          .map(
            (o) =>
              `${o.kind} ${o.path}: ${o.outcome?.answered ? `${o.outcome.status} ${JSON.stringify(o.outcome.body).slice(0, 160)}` : ''}`,
          ),
        violations,
      };
      reports.push(report);
      say(
        `round ${round}: kill at ${killAtMs} ms, sent ${report.sent}, acknowledged ${report.acknowledged}, refused ${report.refused}, ` +
          `interrupted ${report.interrupted}, documents taken over ${report.takenOver}, stale running claims taken over ${report.restartedAfterStaleClaim}, ready again in ${restartMs} ms, violations ${violations.length}`,
      );
      say(`  interrupted by kind: ${JSON.stringify(report.interruptedByKind)}`);
      for (const r of report.refusals) say(`  refused: ${r}`);
      for (const v of violations) say(`  VIOLATION: ${v}`);
      if (options.untilInterrupted !== undefined && reports.reduce((n, r) => n + r.interrupted, 0) >= options.untilInterrupted) break;
    }
    Object.assign(releasedByReconciliation, reconciliationReleases(readEventLog(dataDir)));
  } finally {
    await service.kill();
    await receiver.close();
    if (reports.every((r) => r.violations.length === 0)) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const sum = (f: (r: RoundReport) => number) => reports.reduce((s, r) => s + f(r), 0);
  return {
    seed,
    rounds: reports,
    operationsSent: sum((r) => r.sent),
    interrupted: sum((r) => r.interrupted),
    acknowledged: sum((r) => r.acknowledged),
    interruptedByKind: reports.reduce<Record<string, number>>((all, r) => {
      for (const [kind, n] of Object.entries(r.interruptedByKind)) all[kind] = (all[kind] ?? 0) + (n ?? 0);
      return all;
    }, {}),
    violations: sum((r) => r.violations.length),
    releasedByReconciliation,
    documentsTakenOver: sum((r) => r.takenOver),
    runningClaimsTakenOver: sum((r) => r.restartedAfterStaleClaim),
  };
}
