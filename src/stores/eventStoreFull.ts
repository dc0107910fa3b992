// A full disk under the event log is not a defect of the request nor of the file: the append is refused (nothing
// of it was written), reads go on, and writes resume by themselves once there is space again (HTTP 507).
import type { EventStore } from './eventStore.js';

/** The append was not written because the disk (or the file's size limit) is full; retry later. */
export class EventStoreFullError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`${file}: the disk is full; the append was not written`, { cause });
    this.name = 'EventStoreFullError';
  }
}

/** SQLITE_FULL (a write found no space, or max_page_count was reached) or ENOSPC from the file system. */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

/** Optional member of a store that reports a full disk (the SQLite store does). */
export interface DiskFullReport {
  /** True from an append refused for lack of space until one commits again or space is back. */
  readonly diskFull: boolean;
}

export function diskFullOf(store: EventStore): DiskFullReport | null {
  return 'diskFull' in store ? (store as EventStore & DiskFullReport) : null;
}
