// What the API answers when the event log cannot take a write: 507 while the disk is full (nothing was written;
// retry after Retry-After, writes resume by themselves), 503 once the store stopped after a failed fsync.
import { ProblemError } from '../problems.js';
import { EventStoreUnusableError } from '../stores/eventStore.js';
import { EventStoreFullError } from '../stores/eventStoreFull.js';

/** Seconds a client waits before retrying a write refused for lack of space. */
export const DISK_FULL_RETRY_AFTER_SECONDS = 30;

export function storageProblemOf(err: unknown): ProblemError | null {
  if (err instanceof EventStoreFullError)
    return new ProblemError(
      507,
      'insufficient-storage',
      'Insufficient Storage',
      'The disk of the event log is full: nothing was written. Retry later (an operator must free space); reads go on',
      { 'Retry-After': String(DISK_FULL_RETRY_AFTER_SECONDS) },
    );
  if (err instanceof EventStoreUnusableError)
    return new ProblemError(
      503,
      'event-store-stopped',
      'Service Unavailable',
      'The event log stopped after a failure of its disk and takes no writes until the service is restarted; ' +
        'this write was not acknowledged (retry it with the same Idempotency-Key after the restart)',
      { 'Retry-After': String(DISK_FULL_RETRY_AFTER_SECONDS) },
    );
  return null;
}
