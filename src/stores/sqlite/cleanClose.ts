// A log this store closed cleanly after verifying it, and untouched since, is trusted at the next start: its
// quick_check still runs in the background (and stops the store if it fails), but appends need not wait for it,
// which on a large log takes minutes (a 9 GB file: ~1.5 min). Anything else (a crash, another writer, a restored
// or edited file) finds no matching seal and waits for the check as before.
import fs from 'node:fs';
import { readMark, sameMark, writeMark } from './fileMarks.js';

interface Seal {
  size: string;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
}

const sealFileOf = (file: string): string => `${file}.clean`;

function sealOf(file: string): Seal | null {
  try {
    const st = fs.statSync(file, { bigint: true });
    return { size: String(st.size), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs), ino: String(st.ino) };
  } catch {
    return null;
  }
}

/** Before the file is opened: true when the last close sealed it as it is now. A matching seal is used up. */
export function takeCleanClose(file: string): boolean {
  const recorded = readMark<Seal>(sealFileOf(file));
  if (!recorded) return false;
  const unchanged = !fs.existsSync(`${file}-wal`) && sameMark(sealOf(file), recorded, ['size', 'mtimeNs', 'ctimeNs', 'ino']);
  // Used up, so a crash in this run leaves no seal behind; a stale one can never match again (ctime only grows).
  if (unchanged) fs.rmSync(sealFileOf(file), { force: true });
  return unchanged;
}

/** After a clean close of a verified file: seals it, unless another connection still has it open (no WAL left). */
export function sealCleanClose(file: string): void {
  if (fs.existsSync(`${file}-wal`)) return;
  const seal = sealOf(file);
  if (!seal) return;
  writeMark(sealFileOf(file), seal);
}
