// The soak's short version: 3 minutes, a sample every 10 s, 1.5 minutes of warm-up holding the rebuild (at minute 1: its
// one-off heap peak sets V8's high-water mark before the measure starts), the read store's page cache at 4 MiB (that
// bounded cache is full within the warm-up). The real service under mixed load keeps its heap and descriptors flat,
// answers no error, and the run leaves its figures and plot behind; RSS is reported (it settles over ~5 minutes: the
// 30-minute soak judges it).
import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface Figures {
  verdicts: { name: string; pass: boolean; detail: string }[];
  samples: { minute: number; rssMiB: number; heapUsedMiB: number; fds: number }[];
  load: { requests: number; errors: number; signIns: number; sessionsStarted: number; byOperation: Record<string, number> };
  rebuild: { finishedAfterSeconds: number };
  webhook: { refused: number; delivered: number; undelivered: number };
}

describe('soak (3 minutes of mixed load on the real service)', function () {
  this.timeout(15 * 60_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-test-'));
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('keeps memory and descriptors flat with 0 errors, and writes figures.json, samples.csv and soak.png', async () => {
    const args = [
      '--import',
      'tsx',
      'bench/soak/soak.ts',
      '--minutes',
      '3',
      '--sample-seconds',
      '10',
      '--warmup-minutes',
      '1.5',
      '--rebuild-at-minute',
      '1',
      '--read-cache-mib',
      '4',
      '--out',
      out,
    ];
    let stdout = '';
    try {
      ({ stdout } = await run(process.execPath, args, { maxBuffer: 16 * 2 ** 20 }));
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      assert.fail(`the soak exited ${String(e.code)}:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
    const figures = JSON.parse(fs.readFileSync(path.join(out, 'figures.json'), 'utf8')) as Figures;
    const failed = figures.verdicts.filter((v) => !v.pass);
    assert.deepEqual(failed, [], stdout);
    assert.ok(figures.samples.length >= 18, `a sample every 10 s over 3 minutes, got ${figures.samples.length}`);
    // The load did what it says: sign-ins, treatments, a rebuild, refused webhook deliveries later delivered.
    assert.equal(figures.load.errors, 0);
    assert.ok(figures.load.signIns >= 5, `sign-ins: ${figures.load.signIns}`);
    assert.ok(figures.load.sessionsStarted >= 1, 'at least one dialysis session started');
    for (const op of ['register', 'reading', 'stock-issue', 'list', 'record', 'day-board', 'widget']) {
      assert.ok((figures.load.byOperation[op] ?? 0) > 0, `no ${op} request ran`);
    }
    assert.ok(figures.rebuild.finishedAfterSeconds >= 0, 'the rebuild finished');
    assert.ok(figures.webhook.refused > 0 && figures.webhook.undelivered === 0, JSON.stringify(figures.webhook));
    const png = fs.readFileSync(path.join(out, 'soak.png'));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'soak.png is a PNG');
    const csv = fs.readFileSync(path.join(out, 'samples.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.length, figures.samples.length + 1);
  });
});
