// A full run stopped half-way (a session's end, a full disk) goes on with `--resume <its results file>`: the sections it
// measured are kept and the others measured, over the same code on the same machine, or not at all.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface CodeMeasured {
  commit: string;
  /** Changes to tracked files beside the commit. */
  changed: boolean;
}

/** The commit measured, and whether the tree had changes beside it (a run resumed must measure the same code). */
export function codeMeasured(root: string): CodeMeasured {
  const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
  return { commit: git('rev-parse', 'HEAD'), changed: git('status', '--porcelain', '--untracked-files=no') !== '' };
}

/** A stopped run's figures, to go on with: only over the same unchanged commit, on a machine of the same shape. */
export function resumedRun(file: string, code: CodeMeasured, machine: { node: string; cpus: number }): Record<string, unknown> {
  const earlier = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const refused = (why: string) => new Error(`--resume ${file}: ${why}; start a new run instead`);
  if (earlier.commit !== code.commit || earlier.changed !== false || code.changed) throw refused('another commit, or changes beside it');
  if (earlier.node !== machine.node || earlier.cpus !== machine.cpus) throw refused('another Node.js or machine');
  if ('targets' in earlier) throw refused('that run ended');
  return { ...earlier, resumedAt: [...((earlier.resumedAt as string[] | undefined) ?? []), new Date().toISOString()] };
}
