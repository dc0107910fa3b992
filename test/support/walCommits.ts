// Counts the transactions committed into a SQLite write-ahead log by reading the file (the SQLite WAL format: a
// 32-byte header, then frames of a 24-byte header and a page; a frame whose "database size" field is not zero ends a
// commit, and only frames carrying the header's salts belong to the current log). Real commits, no hook in the store.
import fs from 'node:fs';

/** Commits in the log as it is now (0 when there is no log). A checkpoint that restarts the log starts the count again. */
export function walCommits(databaseFile: string): number {
  let wal: Buffer;
  try {
    wal = fs.readFileSync(`${databaseFile}-wal`);
  } catch {
    return 0;
  }
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}
