// Remembers that the event log's last batch found the disk full, and notices when space is back without a write
// (so /ready recovers even while clients hold their writes back): free bytes on the file system and room under
// the connection's max_page_count.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { EventStoreFullError, isDiskFull } from '../eventStoreFull.js';

/** Free space that counts as "space is back": a few batches of events and their WAL frames. */
const ROOM_BYTES = 1 << 20;

export interface DiskFullTracker {
  readonly full: boolean;
  /** The error to hand the appender: EventStoreFullError for a full disk (and remembers it), else `err` as it is. */
  refused(err: unknown): unknown;
  committed(): void;
}

export function trackDiskFull(file: string, db: Database.Database): DiskFullTracker {
  let full = false;
  const roomAgain = (): boolean => {
    try {
      const fsStats = fs.statfsSync(path.dirname(file));
      if (fsStats.bavail * fsStats.bsize < ROOM_BYTES) return false;
      const pages = Number(db.pragma('page_count', { simple: true }));
      const max = Number(db.pragma('max_page_count', { simple: true }));
      return max - pages >= ROOM_BYTES / Number(db.pragma('page_size', { simple: true }));
    } catch {
      return false;
    }
  };
  return {
    get full() {
      if (full && roomAgain()) full = false;
      return full;
    },
    refused(err) {
      if (err instanceof EventStoreFullError) return err;
      if (!isDiskFull(err)) return err;
      full = true;
      return new EventStoreFullError(file, err);
    },
    committed() {
      full = false;
    },
  };
}
