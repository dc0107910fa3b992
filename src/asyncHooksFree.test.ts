// On Node 20, once an AsyncLocalStorage (or any async hook) is in use, every await in the process pays for it: the service
// passes per-request state explicitly instead, and this keeps its modules free of them.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const srcDir = path.dirname(fileURLToPath(import.meta.url));
const FORBIDDEN = [
  /\bAsyncLocalStorage\b/,
  /\bAsyncResource\b/,
  /\bcreateHook\b/,
  /from ['"](node:)?async_hooks['"]/,
  /require\(['"](node:)?async_hooks['"]\)/,
];

async function sourcesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return sourcesUnder(full);
      return Promise.resolve(/\.[cm]?[jt]s$/.test(e.name) && !e.name.endsWith('.test.ts') ? [full] : []);
    }),
  );
  return nested.flat();
}

describe('the service modules and async hooks', () => {
  it('given every source under src, when scanned, then none uses AsyncLocalStorage, AsyncResource or async_hooks', async () => {
    const files = await sourcesUnder(srcDir);
    assert.ok(files.length > 50, `scanned ${files.length} files under ${srcDir}`);
    const offenders: string[] = [];
    for (const file of files) {
      const text = await fs.readFile(file, 'utf8');
      for (const pattern of FORBIDDEN) if (pattern.test(text)) offenders.push(`${path.relative(srcDir, file)}: ${pattern.source}`);
    }
    assert.deepEqual(offenders, []);
  });
});
