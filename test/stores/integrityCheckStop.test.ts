// Stopping the background quick_check ends it at once, even inside SQLite: a large file's check reads for minutes (a
// 37 GB read store: ten), and a service told to stop (SIGTERM) must not wait for it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { IntegrityCheckStoppedError, startIntegrityCheck } from '../../src/stores/sqlite/integrityCheck.js';

describe('the background integrity check, stopped', () => {
  let dir: string;
  let holder: Database.Database;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'integrity-stop-'));
    const file = path.join(dir, 'events.sqlite');
    holder = new Database(file);
    holder.pragma('journal_mode = WAL');
    holder.exec('CREATE TABLE t (x)');
    // Held exclusively: the check's connection waits for it inside SQLite (its busy timeout), where no JS runs.
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
  });
  after(() => {
    holder.exec('ROLLBACK');
    holder.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends while the check is still inside SQLite, and says it was stopped', async () => {
    const check = startIntegrityCheck(path.join(dir, 'events.sqlite'));
    const outcome = check.done.then(
      () => 'passed',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // the check has opened its connection and waits
    // Its busy wait lasts 10 s: a stop that waited for SQLite would still be waiting when the file is let go below.
    const stopped = await Promise.race([check.stop().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('waiting'), 5_000))]);
    assert.equal(stopped, 'stopped');
    assert.ok((await outcome) instanceof IntegrityCheckStoppedError);
  });
});
