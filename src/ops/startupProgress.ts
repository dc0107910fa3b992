// What a start still has to finish before the service is ready, kept beside the services object so /ready can say
// it (the reconciliations' first runs: the periodic task runner is started after the services are assembled).
import type { EventStore } from '../stores/eventStore.js';
import { backgroundIntegrityOf } from '../stores/sqlite/integrityCheck.js';

const reconciliations = new WeakMap<object, () => string[]>();

/** Installs the source of the reconciliations still in their first run (server.ts, once the runner started). */
export function recordReconciliations(services: object, reconciling: () => string[]): void {
  reconciliations.set(services, reconciling);
}

/** The reconciliations whose first run after the start has not ended (none before they were recorded). */
export function reconciliationsRunning(services: object): string[] {
  return reconciliations.get(services)?.() ?? [];
}

export type IntegrityCheckState = 'running' | 'passed' | 'failed' | 'none';

const RUNNING = Symbol('running');

/** The event store's background integrity check ('passed' at once for a file this run created; 'none' for EventStoreDB). */
export async function integrityCheckState(events: EventStore): Promise<IntegrityCheckState> {
  const check = backgroundIntegrityOf(events);
  if (!check) return 'none';
  try {
    // A settled check wins the race over the already resolved sentinel (its reaction is queued first).
    return (await Promise.race([check.integrity, Promise.resolve(RUNNING)])) === RUNNING ? 'running' : 'passed';
  } catch {
    return 'failed';
  }
}
