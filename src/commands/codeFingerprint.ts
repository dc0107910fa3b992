// Snapshots are taken by one build of the code and read by another: a fingerprint of the service's source files goes
// into every snapshot's version, so a deploy that changes any fold (or a helper it calls) never resumes an older one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The service's own code: src/ when run from source, dist/src/ when compiled (this file lives in <root>/commands/). */
const CODE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CODE_FILE = /\.(ts|js|mjs|cjs)$/;
const TEST_FILE = /\.test\.(ts|js)$/;

let fingerprint: string | null = null;

/** A short hash of every source file's path and text, computed once per process. */
export function codeFingerprint(): string {
  fingerprint ??= hashTree(CODE_ROOT);
  return fingerprint;
}

function hashTree(root: string): string {
  const hash = createHash('sha256');
  const files = (fs.readdirSync(root, { recursive: true, withFileTypes: false }) as string[])
    .filter((f) => CODE_FILE.test(f) && !TEST_FILE.test(f))
    .sort();
  for (const file of files) {
    hash.update(file.split(path.sep).join('/')).update('\u0000');
    hash.update(fs.readFileSync(path.join(root, file))).update('\u0000');
  }
  return hash.digest('hex').slice(0, 16);
}
