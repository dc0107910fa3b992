// A log this service verified in its current run (created it, or saw its quick_check pass) and then lost to a crash
// (kill -9, OOM, power cut) is trusted at the next start like a cleanly closed one (cleanClose.ts): appends go on at
// once while its quick_check runs in the background and stops the store if it fails. Only this service writes the
// file meanwhile (DATA_DIR/service.lock), and SQLite's WAL leaves a consistent file after a crash. The mark names the
// file (device, inode) and the log's identity: a clean close replaces it by the clean seal, a failed check removes it,
// and a swapped or restored file does not match it; whatever does not match waits for its check, as before.
import fs from 'node:fs';
import { readMark, sameMark, writeMark } from './fileMarks.js';

interface Mark {
  dev: string;
  ino: string;
  identity: string;
}

const markFileOf = (file: string): string => `${file}.verified`;

function markOf(file: string, identity: string): Mark | null {
  try {
    const st = fs.statSync(file, { bigint: true });
    return { dev: String(st.dev), ino: String(st.ino), identity };
  } catch {
    return null;
  }
}

/** True when this run's file is the one a previous run verified (and did not close cleanly). The mark stays. */
export function verifiedBeforeCrash(file: string, identity: string | null): boolean {
  if (identity === null) return false;
  const recorded = readMark<Mark>(markFileOf(file));
  return recorded !== null && sameMark(markOf(file, identity), recorded, ['dev', 'ino', 'identity']);
}

/** Once the file is verified in this run: a crash from here on leaves it trusted at the next start. */
export function markVerifiedRun(file: string, identity: string): void {
  const mark = markOf(file, identity);
  if (!mark) return;
  try {
    writeMark(markFileOf(file), mark);
  } catch {
    // Without the mark, the next start after a crash waits for the check: safe, only slower.
  }
}

/** A clean close (sealed instead) or a failed check (never trusted again without a check). */
export function forgetVerifiedRun(file: string): void {
  fs.rmSync(markFileOf(file), { force: true });
}
