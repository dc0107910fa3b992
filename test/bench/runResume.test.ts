// A stopped full run goes on only over the code and machine it measured, and only if it had not ended.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resumedRun } from '../../bench/runResume.js';

describe('bench --resume', () => {
  let dir: string;
  const machine = { node: 'v24.0.0', cpus: 2 };
  const code = { commit: 'a'.repeat(40), changed: false };
  const stopped = { at: '2026-11-27T08:14:00.000Z', ...code, ...machine, appends: [{ writers: 1 }], scale: { events: 10 } };
  const saved = (run: object): string => {
    const file = path.join(dir, `${Math.random()}.json`);
    fs.writeFileSync(file, JSON.stringify(run));
    return file;
  };
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-resume-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the sections measured and says when it went on', () => {
    const run = resumedRun(saved(stopped), code, machine);
    assert.deepEqual(run.appends, stopped.appends);
    assert.deepEqual(run.scale, stopped.scale);
    assert.equal((run.resumedAt as string[]).length, 1);
    const again = resumedRun(saved(run), code, machine);
    assert.equal((again.resumedAt as string[]).length, 2);
  });

  it('refuses another commit, changes beside it, another machine, or a run that ended', () => {
    const file = saved(stopped);
    assert.throws(() => resumedRun(file, { ...code, commit: 'b'.repeat(40) }, machine), /another commit/);
    assert.throws(() => resumedRun(file, { ...code, changed: true }, machine), /another commit/);
    assert.throws(() => resumedRun(saved({ ...stopped, changed: true }), code, machine), /another commit/);
    assert.throws(() => resumedRun(file, code, { ...machine, cpus: 4 }), /another Node.js or machine/);
    assert.throws(() => resumedRun(saved({ ...stopped, targets: [] }), code, machine), /that run ended/);
  });
});
