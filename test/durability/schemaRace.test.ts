// Several processes starting at once on an empty DATA_DIR all open the event file: exactly one creates the
// schema, the others find it (no "table events already exists").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function openInChild(file: string, startAt: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'openAtOnce.ts'), file, String(startAt)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', () => resolve(out.trim()));
  });
}

describe('SQLite event store: processes racing on a new file', function () {
  this.timeout(120_000);

  it('lets 6 processes x 4 rounds open a brand-new file at the same instant', async () => {
    for (let round = 0; round < 4; round++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-race-'));
      try {
        // Far enough ahead for every child to have loaded its modules (tsx) before the shared instant.
        const startAt = Date.now() + 3_000;
        const results = await Promise.all(Array.from({ length: 6 }, () => openInChild(path.join(dir, 'data', 'events.sqlite'), startAt)));
        assert.deepEqual(
          results,
          Array.from({ length: 6 }, () => 'opened'),
          `round ${round}`,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
