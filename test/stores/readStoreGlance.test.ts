// The read-model file's glance beside a long reader: a checkpoint held back by a reader's older snapshot (an online
// backup copies the file in one read transaction) copies back a header that declares pages the file does not hold yet.
// That file is sound, and the glance must not set it aside (a full run's online backup once did: 503s while it rebuilt).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { glanceAt, identityOf } from '../../src/stores/sqliteRead/readStoreDamage.js';

/** The header's page count against the file's pages (SQLite file format: offsets 24, 28, 92). */
function pagesDeclaredAndHeld(file: string): { declared: number; held: number } {
  const head = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  const declared = head.readUInt32BE(24) === head.readUInt32BE(92) ? head.readUInt32BE(28) : 0;
  return { declared, held: fs.statSync(file).size / head.readUInt16BE(16) };
}

describe('the read-model file glance beside a long reader', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-store-glance-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds nothing wrong while checkpoints are held back, and still finds a file truncated once they are done', function () {
    const file = path.join(dir, 'readmodels.sqlite');
    const writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 100'); // checkpoints inside commits, as the store's (at 10,000 pages)
    writer.exec('CREATE TABLE docs (id TEXT PRIMARY KEY, kind TEXT, doc TEXT)');
    writer.exec('CREATE INDEX docs_kind ON docs (kind, id)');
    const put = writer.prepare('INSERT OR REPLACE INTO docs VALUES (?, ?, ?)');
    const drop = writer.prepare('DELETE FROM docs WHERE id = ?');
    const reader = new Database(file, { readonly: true });
    const opened = identityOf(file)!;
    let shortSeen = 0;
    const findings = new Set<string>();
    for (let commit = 0; commit < 3_000; commit++) {
      writer.transaction(() => {
        for (let j = 0; j < 5; j++) {
          const id = `k${(commit * 7 + j * 13) % 5_000}`;
          if ((commit + j) % 3 === 0) drop.run(id);
          else put.run(id, String(commit % 50), 'x'.repeat(200 + ((commit * j) % 3_000)));
        }
      })();
      if (commit % 50 === 0) {
        // A new long read transaction every 50 commits: the backup's snapshot, older than the commits after it.
        if (reader.inTransaction) reader.exec('COMMIT');
        reader.exec('BEGIN');
        reader.prepare('SELECT count(*) FROM docs').get();
      }
      const { declared, held } = pagesDeclaredAndHeld(file);
      if (declared > held) shortSeen++;
      const finding = glanceAt(file, opened);
      if (finding) findings.add(finding);
    }
    assert.ok(shortSeen > 0, 'the held-back checkpoints left the file shorter than its header at least once');
    assert.deepEqual([...findings], []);

    reader.exec('COMMIT');
    writer.pragma('wal_checkpoint(TRUNCATE)');
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    assert.match(glanceAt(file, opened) ?? '', /the file was truncated/);
    reader.close();
    writer.close();
  });
});
