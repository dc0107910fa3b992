// An acknowledged append survives kill -9: a child appends and reports each acknowledgement, we SIGKILL it
// mid-stream, reopen the file and look for every acknowledged event (three rounds on the same file).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

interface Ack {
  stream: string;
  ids: string[];
  lastRevision: number;
  position: string;
}

/** Runs the appending child until it has reported `acks` acknowledgements, then kills it with SIGKILL. */
function appendThenKill(file: string, acks: number): Promise<Ack[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'appendUntilKilled.ts'), file, '8'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const received: Ack[] = [];
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') return;
      received.push(JSON.parse(line) as Ack);
      if (received.length === acks) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited (${code}) before it was killed: ${stderr}`));
      else resolve(received); // includes any line already in the pipe when the signal landed
    });
  });
}

describe('SQLite event store durability: kill -9', function () {
  this.timeout(180_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-kill9-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged append across repeated SIGKILLs, with contiguous revisions', async () => {
    const file = path.join(dir, 'data', 'events.sqlite');
    const acknowledged: Ack[] = [];
    for (const acks of [150, 400, 250]) {
      const round = await appendThenKill(file, acks);
      assert.ok(round.length >= acks, `round reported ${round.length} acknowledgements`);
      acknowledged.push(...round);

      const store = await openSqliteEventStore({ file });
      try {
        const streams = [...new Set(acknowledged.map((a) => a.stream))];
        const stored = new Map<string, Awaited<ReturnType<typeof store.readStream>>>();
        for (const s of streams) stored.set(s, await store.readStream(s));
        for (const [s, events] of stored) {
          assert.deepEqual(
            events.map((e) => e.revision),
            events.map((_, i) => i),
            `revisions of ${s} are contiguous`,
          );
        }
        for (const ack of acknowledged) {
          const events = stored.get(ack.stream)!;
          const first = ack.lastRevision - ack.ids.length + 1;
          assert.deepEqual(
            events.slice(first, ack.lastRevision + 1).map((e) => e.id),
            ack.ids,
            `acknowledged append in ${ack.stream} at ${first}`,
          );
          assert.equal(String(events[ack.lastRevision]!.position), ack.position);
        }
        const all = await store.readAll({ maxCount: 1_000_000 });
        assert.deepEqual(
          all.map((e) => e.position),
          all.map((e) => e.position).sort((a, b) => (a < b ? -1 : 1)),
        );
      } finally {
        await store.close();
      }
    }
  });
});
