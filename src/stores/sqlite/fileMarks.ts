// A small JSON file beside the log recording what the log file was when a run vouched for it (cleanClose.ts,
// verifiedRun.ts): read it, compare it field by field with the file now, write it atomically.
import fs from 'node:fs';

/** The recorded mark, or null when there is none (or it cannot be read). */
export function readMark<Mark>(markFile: string): Mark | null {
  try {
    return JSON.parse(fs.readFileSync(markFile, 'utf8')) as Mark;
  } catch {
    return null;
  }
}

/** True when both marks hold the same value in each of `fields`. */
export function sameMark<Mark extends object>(now: Mark | null, recorded: Mark, fields: readonly (keyof Mark)[]): boolean {
  return now !== null && fields.every((k) => now[k] === recorded[k]);
}

/** Written to a temporary file then renamed over the mark: a crash leaves the old mark or the new one, never half. */
export function writeMark(markFile: string, mark: unknown): void {
  const tmp = `${markFile}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(mark), { mode: 0o600 });
  fs.renameSync(tmp, markFile);
}
