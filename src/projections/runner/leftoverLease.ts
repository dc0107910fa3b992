// The SQLite read-model file lives in DATA_DIR, which this process holds alone (DATA_DIR/service.lock): a projector
// lease found there at start was left by a previous process of this directory that did not stop cleanly (kill -9).
// It is released at once, so the restart projects from its checkpoints instead of standing by until the lease
// expires (up to LIMITS.projections.leaseTtlSeconds), while writes that wait for their read models time out.
import type { Logger } from '../../logger.js';
import type { ReadStore } from '../../stores/readStore.js';
import { readLease, releaseLease } from '../../stores/leases.js';
import { PROJECTOR_LEASE } from './projectorLease.js';

/** Only for a read store no other process can open: the SQLite file of a data directory whose service lock is held. */
export async function releaseLeftoverProjectorLease(reads: ReadStore, logger: Logger): Promise<void> {
  if (reads.kind !== 'sqlite') return;
  const lease = await readLease(reads, PROJECTOR_LEASE);
  if (!lease || lease.expiresAt === 0) return;
  await releaseLease(reads, PROJECTOR_LEASE, lease.holder);
  logger.info('projector lease left by a previous process of this data directory released', { holder: lease.holder });
}
