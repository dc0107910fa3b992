// The online copy of a SQLite file in WAL mode while another connection keeps committing: SQLite restarts the copy
// after each commit between two steps, the steps grow until one takes it all, and the copy is one committed state;
// the copy runs in a worker, so the event loop that commits is never held.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { copyLiveSqlite, type CopyProgress } from '../../src/ops/backup/liveSqliteCopy.js';

describe('copy of a live SQLite file', () => {
  let tmp: string;
  before(async () => (tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-live-copy-'))));
  after(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('finishes under continuous commits with a consistent snapshot', async () => {
    const source = path.join(tmp, 'source.sqlite');
    const writer = new Database(source);
    writer.pragma('journal_mode = WAL');
    writer.exec(
      'CREATE TABLE rows (id INTEGER PRIMARY KEY, blob BLOB NOT NULL); CREATE TABLE total (n INTEGER NOT NULL); INSERT INTO total VALUES (0)',
    );
    const add = writer.transaction((count: number) => {
      for (let i = 0; i < count; i++) writer.prepare('INSERT INTO rows (blob) VALUES (randomblob(4000))').run();
      writer.prepare('UPDATE total SET n = n + ?').run(count);
    });
    add(4000); // ~4000 pages: several first-size steps
    let writing = true;
    let commits = 0;
    const loop = (): void => {
      if (!writing) return;
      add(1);
      commits++;
      setImmediate(loop);
    };
    setImmediate(loop);
    const seen: CopyProgress[] = [];
    const dest = path.join(tmp, 'copy.sqlite');
    const done = await copyLiveSqlite(source, dest, (p) => seen.push(p));
    writing = false;
    writer.close();

    assert.ok(commits > 0 && done.restarts > 0, `commits ${commits}, restarts ${done.restarts}`);
    assert.equal(done.copiedPages, done.totalPages);
    assert.equal((await fs.stat(dest)).mode & 0o777, 0o600);
    const copy = new Database(dest, { readonly: true });
    const rows = copy.prepare('SELECT count(*) FROM rows').pluck().get();
    const total = copy.prepare('SELECT n FROM total').pluck().get();
    copy.close();
    assert.equal(rows, total, 'one committed state: the rows and their count agree');
    assert.ok((total as number) >= 4000);
  });
});
