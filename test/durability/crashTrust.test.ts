// A log the killed run had verified is trusted at the restart: appends go on at once while its quick_check runs (a
// large log's check took seconds, and every write waited for it); a file swapped or damaged since is not trusted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { EventStoreUnusableError, streamName } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { newEvent } from '../support/eventFixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

/** Runs the appending child (appendUntilKilled.ts) until `acks` acknowledgements, then SIGKILLs it. */
function appendThenKill(file: string, acks: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'appendUntilKilled.ts'), file, '4'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line !== 'ready' && ++seen === acks) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited (${code}): ${stderr}`))));
  });
}

const state = (store: object): string | undefined => (store as { integrityState?: string }).integrityState;
const check = (store: object): Promise<void> => (store as { integrity: Promise<void> }).integrity;

describe('SQLite event store: restart after a crash of a run that had verified the log', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-crash-trust-'));
    file = path.join(dir, 'events.sqlite');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('accepts appends at once after kill -9, checks the file meanwhile, and again after a second kill', async () => {
    await appendThenKill(file, 100); // the child created the file, so its run had verified it
    assert.ok(!fs.existsSync(`${file}.clean`), 'a killed run leaves no clean seal');
    for (let round = 0; round < 2; round++) {
      const store = await openSqliteEventStore({ file });
      assert.equal(state(store), 'ok', `round ${round}: appends are not held for the check`);
      await store.appendToStream(streamName('t1', 'patient', `r${round}`), [newEvent('t1')], { expectedRevision: 'no_stream' });
      await check(store); // the check still runs, and passes
      await store.close();
      fs.rmSync(`${file}.clean`); // as if this run had been killed too, after verifying the file
      if (round === 0) await appendThenKill(file, 50);
    }
  });

  it('holds appends for the check when the file was swapped after the crash (a copy: another inode)', async () => {
    await appendThenKill(file, 100);
    fs.copyFileSync(file, `${file}.copy`);
    fs.renameSync(`${file}.copy`, file);
    const store = await openSqliteEventStore({ file });
    assert.equal(state(store), 'checking');
    await check(store);
    await store.close();
  });

  it('a file damaged in place after the crash is found by the check, which stops the store and drops the trust', async () => {
    await appendThenKill(file, 2000);
    const reopened = await openSqliteEventStore({ file });
    await check(reopened);
    await reopened.close(); // checkpointed into the main file and sealed
    await appendThenKill(file, 10); // a run over the sealed file (trusted, so marked) killed in its turn
    const verified = `${file}.verified`;
    assert.ok(fs.existsSync(verified), 'the killed run left its mark');
    const fd = fs.openSync(file, 'r+'); // damaged in place: same inode
    const pageSize = 4096;
    const pages = Math.floor(fs.fstatSync(fd).size / pageSize);
    fs.writeSync(fd, Buffer.alloc(pageSize * 2, 0xa5), 0, pageSize * 2, pageSize * Math.floor(pages / 2));
    fs.closeSync(fd);

    const store = await openSqliteEventStore({ file });
    assert.equal(state(store), 'ok', 'trusted: appends are not held');
    await assert.rejects(check(store), (err: unknown) => err instanceof EventStoreUnusableError && /corrupt/.test(err.message));
    assert.equal(state(store), 'failed', 'the failed check stops the store');
    await assert.rejects(
      store.stopped.then((err) => Promise.reject(err)),
      EventStoreUnusableError,
    );
    await store.close();
    assert.ok(!fs.existsSync(verified), 'the trust is dropped');
    const again = await openSqliteEventStore({ file }).catch((err: unknown) => err);
    if (!(again instanceof EventStoreUnusableError)) {
      assert.equal(state(again as object), 'checking', 'the next start waits for the check');
      await check(again as object).catch(() => undefined);
      await (again as { close(): Promise<void> }).close();
    }
  });
});
