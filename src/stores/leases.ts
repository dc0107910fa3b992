// Leases on any ReadStore (one holder at a time, e.g. the projector on a shared MongoDB): one document per lease,
// taken or renewed by a conditional upsert. The filter matches only when the caller already holds the lease or it has
// expired; otherwise the upsert collides with the existing document on its primary key (DuplicateKeyError), which both
// adapters report for exactly that case (MongoDB E11000 on `_id`), so two instances can never both win.
import { DuplicateKeyError, PLATFORM_DOCS, type ReadDoc, type ReadStore } from './readStore.js';

export const LEASES_COLLECTION = 'leases';

export interface LeaseDoc extends ReadDoc {
  holder: string;
  /** Milliseconds since the epoch (the clock of the instance that took or renewed it). */
  expiresAt: number;
}

export interface LeaseRequest {
  /** The lease, e.g. 'projector'. */
  name: string;
  /** Who asks: unique per process. */
  holder: string;
  nowMs: number;
  ttlMs: number;
}

/** Takes the lease when free or expired, renews it when already held; false while another holder has it. */
export async function acquireLease(reads: ReadStore, request: LeaseRequest): Promise<boolean> {
  const leases = await reads.collection<LeaseDoc>(LEASES_COLLECTION);
  const { name, holder, nowMs, ttlMs } = request;
  try {
    await leases.updateOne(
      PLATFORM_DOCS,
      { id: name, $or: [{ holder }, { expiresAt: { $lte: nowMs } }] },
      { $set: { holder, expiresAt: nowMs + ttlMs } },
      { upsert: true },
    );
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}

/** Gives the lease up at once (when still held by `holder`), so another instance need not wait for it to expire. */
export async function releaseLease(reads: ReadStore, name: string, holder: string): Promise<void> {
  const leases = await reads.collection<LeaseDoc>(LEASES_COLLECTION);
  await leases.updateOne(PLATFORM_DOCS, { id: name, holder }, { $set: { expiresAt: 0 } });
}

/** The current holder and expiry, or null when the lease was never taken. */
export async function readLease(reads: ReadStore, name: string): Promise<LeaseDoc | null> {
  return (await reads.collection<LeaseDoc>(LEASES_COLLECTION)).get(PLATFORM_DOCS, name);
}
