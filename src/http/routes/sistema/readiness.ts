// GET /ready: the stores answer, writes are accepted, every projection this process runs has caught up with the log
// and the reconciliations' first runs after the start have ended; `checks` says which of these is still pending.
import type { AppServices } from '../../../services.js';
import { ProblemError } from '../../../problems.js';
import { backgroundIntegrityOf } from '../../../stores/sqlite/integrityCheck.js';
import { readStoreRecoveryOf } from '../../../stores/sqliteRead/recoverableReadStore.js';
import { diskFullOf } from '../../../stores/eventStoreFull.js';
import { integrityCheckState, reconciliationsRunning } from '../../../ops/startupProgress.js';

type Check = 'ok' | 'checking' | 'failed' | 'rebuilding' | 'disk-full' | 'caught-up' | 'behind' | 'not-run-here';

/** What /ready last answered, per service: a line says when that changes, never one a probe. */
const lastAnswers = new WeakMap<object, 'ready' | 'not-ready'>();

function noteAnswer(services: AppServices, ready: boolean, checks: Record<string, unknown>): void {
  const before = lastAnswers.get(services);
  lastAnswers.set(services, ready ? 'ready' : 'not-ready');
  if (ready && before !== 'ready') services.logger.info('ready: /ready answers 200', { checks });
  else if (!ready && before === 'ready') services.logger.warn('not ready: /ready answers 503', { checks });
}

export async function readiness(services: AppServices): Promise<Record<string, unknown>> {
  const checks: Record<'eventStore' | 'readStore' | 'projections', Check> & Record<string, unknown> = {
    eventStore: 'ok',
    readStore: 'ok',
    projections: 'caught-up',
  };
  let projections: { name: string; state: string; lag: number }[] = [];
  try {
    await services.events.headPosition();
  } catch (err) {
    services.logger.error('readiness: event store failed', { error: err });
    checks.eventStore = 'failed';
  }
  // The SQLite store checks its whole file in the background after opening it: not ready until that passed.
  const integrity = backgroundIntegrityOf(services.events)?.integrityState ?? 'ok';
  if (checks.eventStore === 'ok' && integrity !== 'ok') checks.eventStore = integrity === 'checking' ? 'checking' : 'failed';
  if (checks.eventStore === 'ok' && diskFullOf(services.events)?.diskFull) checks.eventStore = 'disk-full'; // reads go on, writes 507
  // A damaged read-model file was set aside: the fresh one is refilled from the log (readStoreDamage says what happened).
  const recovery = readStoreRecoveryOf(services.reads);
  if (recovery?.state === 'rebuilding') checks.readStore = 'rebuilding';
  else
    try {
      await services.reads.listCollections();
    } catch (err) {
      services.logger.error('readiness: read store failed', { error: err });
      checks.readStore = 'failed';
    }
  if (services.config.role === 'api') {
    // Another process (role 'projector') runs the projections; this one only reads their results.
    checks.projections = 'not-run-here';
  } else {
    try {
      projections = (await services.projections.status()).map((s) => ({ name: s.name, state: s.state, lag: s.lag }));
      // 'rebuilding' still serves reads from the previous copy; 'standby' serves those of the instance holding the lease.
      if (projections.some((p) => p.state !== 'live' && p.state !== 'rebuilding' && p.state !== 'standby')) checks.projections = 'behind';
    } catch (err) {
      services.logger.error('readiness: projection status failed', { error: err });
      checks.projections = 'failed';
    }
  }
  // Why a start is not ready yet, beside the checks above: writes held until the log's integrity check passed, the
  // projections' total lag, the reconciliations still in their first run.
  const reconciling = reconciliationsRunning(services);
  const startup = {
    integrityCheck: await integrityCheckState(services.events),
    writes: integrity === 'checking' ? 'held' : integrity === 'failed' ? 'refused' : 'accepted',
    projectionsLag: projections.reduce((sum, p) => sum + p.lag, 0),
    reconciliation: reconciling.length > 0 ? 'running' : 'done',
    ...(reconciling.length > 0 ? { reconciling } : {}),
  };
  Object.assign(checks, startup);
  const ready =
    startup.writes === 'accepted' &&
    startup.reconciliation === 'done' &&
    checks.eventStore === 'ok' &&
    checks.readStore === 'ok' &&
    (checks.projections === 'caught-up' || checks.projections === 'not-run-here');
  noteAnswer(services, ready, checks);
  if (!ready) {
    throw new ProblemError(
      503,
      'not-ready',
      'Service Unavailable',
      'The service is starting or a store is unavailable; see checks',
      { 'Retry-After': '5' },
      undefined,
      { checks, projections, ...(recovery?.state === 'rebuilding' ? { readStoreDamage: recovery.lastDamage } : {}) },
    );
  }
  return { status: 'ready', checks, projections };
}
