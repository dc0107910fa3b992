// Process entry point. V8's code cache on disk first (Node's module compile cache): a restart then skips compiling the
// service's modules again (~0.5 s of a ~1.8 s restart here). An ES module's static imports are all compiled before its
// code runs, so the service comes in by a dynamic import once the cache is on.
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

// Typed by hand: @types/node is 20's, whose module has neither (Node 22.8+ and 23+).
const { enableCompileCache, flushCompileCache } = module as unknown as {
  enableCompileCache?: (directory: string) => { directory?: string };
  flushCompileCache?: () => void;
};

/**
 * A directory of this user's under the temporary one, used only when this user owns it and no one else may write to it
 * (cached code runs as the service: another user's cache would be theirs to write).
 */
function privateCacheDirectory(): string | null {
  // The operator's word: NODE_COMPILE_CACHE (Node itself uses it from the start) or NODE_DISABLE_COMPILE_CACHE.
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE || !enableCompileCache) return null;
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(os.tmpdir(), `dialysis-records-compile-cache-${uid}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.statSync(dir);
    return stat.uid === uid && (stat.mode & 0o022) === 0 ? dir : null;
  } catch {
    return null; // a read-only file system: no cache, the same start
  }
}

const directory = privateCacheDirectory();
// Worker threads (projector, renders, checks) inherit it through the environment.
if (directory && enableCompileCache!(directory).directory) process.env.NODE_COMPILE_CACHE = directory;
const { runService } = await import('./runService.js');
await runService();
flushCompileCache?.(); // written now, not only at a clean exit: a first run that ends in a crash still leaves it
