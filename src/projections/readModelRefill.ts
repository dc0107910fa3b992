// Wires the SQLite read store's recovery to the projection runner: the fresh file that replaces a damaged one is
// refilled from the event log, the platform read models that sign-in and every authenticated request read first.
import type { ReadStore } from '../stores/readStore.js';
import { readStoreRecoveryOf } from '../stores/sqliteRead/recoverableReadStore.js';
import type { ProjectionRunner } from './runner/runnerTypes.js';
import { API_CLIENTS, COMPANIES, MEMBERSHIPS, SESSIONS, USERS } from './platform/platformReadModels.js';

const SIGN_IN_READS = [...new Set([USERS, SESSIONS, COMPANIES, MEMBERSHIPS, API_CLIENTS].map((model) => model.projection))];

export function refillReadModelsAfterDamage(reads: ReadStore, projections: ProjectionRunner): void {
  readStoreRecoveryOf(reads)?.onReplaced(() => projections.refill(SIGN_IN_READS));
}
