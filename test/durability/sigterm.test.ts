// The container's entry process, run as the image runs it: the Dockerfile's CMD over a fresh `npm run build`
// (tsconfig.build.json), from a directory holding only what the runtime stage holds (package.json, node_modules,
// dist/). `docker stop` sends SIGTERM to that process: a request in flight must still be answered, the event store
// closed, and the process must exit 0. (`npm start` as the entry never passed the signal on to node.)
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN = { email: 'sigterm-admin@example.test', password: 'container lifecycle passphrase 1' };

/** The Dockerfile with its continued lines joined: one instruction a line. */
const dockerfile = (): string => fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');

/** The final CMD of the Dockerfile; only the exec (JSON) form makes the named program the process that gets SIGTERM. */
function imageCommand(): string[] {
  assert.doesNotMatch(dockerfile(), /^ENTRYPOINT\b/m, 'this test runs CMD alone: an ENTRYPOINT would run in front of it');
  const cmd = [...dockerfile().matchAll(/^CMD\s+(.*)$/gm)].at(-1)?.[1];
  assert.ok(cmd, 'the Dockerfile has a CMD');
  assert.match(cmd, /^\[.*\]\s*$/, 'CMD in exec form: the shell form runs under /bin/sh -c, which does not pass SIGTERM on');
  return JSON.parse(cmd) as string[];
}

/** The HEALTHCHECK's command (exec form). */
function healthCheckCommand(): string[] {
  const cmd = /^HEALTHCHECK\b.*?\sCMD\s+(\[.*\])\s*$/m.exec(dockerfile())?.[1];
  assert.ok(cmd, 'the Dockerfile has a HEALTHCHECK in exec form');
  return JSON.parse(cmd) as string[];
}

function run(command: string, args: string[], cwd: string, env = process.env): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

interface Entry {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The JSON log lines so far (the first-start banner and other text are left out). */
  logs: { msg: string; [field: string]: unknown }[];
  /** Resolves with the first log line with this message; rejects if the process exits before writing it. */
  logged(msg: string): Promise<Record<string, unknown>>;
  exited: Promise<Exit>;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Processes of the entry's group were still running when it exited (they are killed). */
  leftRunning: boolean;
}

function startEntry(appDir: string, dataDir: string): Entry {
  const [program, ...args] = imageCommand();
  // NODE_OPTIONS left out: the compiled entry must start without the test runner's TypeScript loader.
  const { NODE_OPTIONS: _loader, ...env } = process.env;
  // Detached: its own process group, so cleanup also reaches a grandchild an entry like `npm start` leaves behind.
  const child = spawn(program === 'node' ? process.execPath : program!, args, {
    cwd: appDir,
    detached: true,
    env: {
      ...env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Entry['logs'] = [];
  const waiting: { msg: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  let pending = '';
  child.stdout.on('data', (chunk) => {
    const lines = (pending + String(chunk)).split('\n');
    pending = lines.pop()!;
    for (const text of lines) {
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as Entry['logs'][number];
      logs.push(line);
      for (const w of waiting.filter((w) => w.msg === line.msg)) w.resolve(line);
    }
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<Exit>((resolve, reject) => {
    child.on('error', reject);
    child.once('exit', (code, signal) => {
      // What outlived the entry in its group (an orphaned server) keeps the pipes open: note it, and end it.
      const leftRunning = killGroup(child.pid!);
      child.once('close', () => resolve({ code, signal, stderr, leftRunning }));
    });
  });
  const logged = (msg: string) => {
    const seen = logs.find((l) => l.msg === msg);
    if (seen) return Promise.resolve(seen);
    return Promise.race([
      new Promise<Record<string, unknown>>((resolve) => waiting.push({ msg, resolve })),
      exited.then(({ code, signal, leftRunning }) => {
        const orphans = leftRunning ? ', leaving the service running orphaned' : '';
        throw new Error(`the entry process exited (code ${code}, signal ${signal}) before logging '${msg}'${orphans}; stderr: ${stderr}`);
      }),
    ]);
  };
  return { child, logs, logged, exited };
}

/** Kills what is left of a process group; false when nothing was (the entry exited and left nothing behind). */
function killGroup(pid: number): boolean {
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false; // ESRCH: the group is empty
  }
}

/** A raw HTTP/1.1 connection, to send a request's body in parts. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const checks: (() => void)[] = [];
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('data', (d: Buffer) => {
      received += d.toString('utf8');
      for (const check of checks) check();
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
  });
  /** Resolves with all received so far once it matches (or the connection closed). */
  const receivedWhen = (pattern: RegExp) =>
    Promise.race([closed, new Promise<string>((resolve) => checks.push(() => pattern.test(received) && resolve(received)))]);
  return { socket, receivedWhen, closed };
}

describe('the container entry process (Dockerfile CMD, compiled build)', function () {
  this.timeout(120_000);
  let appDir: string;
  let dataDir: string;
  let entry: Entry | undefined;

  before(async () => {
    // What the runtime stage holds: package.json (ESM, version), node_modules and the build output.
    appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'entry-app-'));
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(appDir, 'package.json'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(appDir, 'node_modules'), 'dir');
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    const build = await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(appDir, 'dist')], repoRoot);
    assert.equal(build.code, 0, `npm run build failed:\n${build.output}`);
    const panel = await run(process.execPath, ['scripts/build-panel.mjs', path.join(appDir, 'dist', 'panel')], repoRoot);
    assert.equal(panel.code, 0, `the panel's bundle failed:\n${panel.output}`);
  });
  after(() => fs.rmSync(appDir, { recursive: true, force: true }));
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'entry-data-'))));
  afterEach(() => {
    if (entry) killGroup(entry.child.pid!);
    entry = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs node itself, on compiled JavaScript', () => {
    const [program, ...args] = imageCommand();
    const script = args.find((a) => !a.startsWith('-'));
    assert.equal(program, 'node', 'node is the entry process (npm or a shell in front would not pass SIGTERM on)');
    assert.ok(script && fs.existsSync(path.join(appDir, script)), `${script} is produced by npm run build`);
  });

  it('serves /health, /openapi.json, the /docs and /panel assets from the build alone, and passes the HEALTHCHECK', async () => {
    entry = startEntry(appDir, dataDir);
    const { url } = (await entry.logged('listening')) as { url: string };
    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const openapi = await fetch(`${url}/openapi.json`);
    assert.equal(openapi.status, 200);
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(((await openapi.json()) as { info: { version: string } }).info.version, version, 'package.json found from dist/');
    const css = await fetch(`${url}/docs/assets/swagger-ui.css`);
    assert.equal(css.status, 200, 'swagger-ui-dist found from dist/');
    await css.arrayBuffer();
    const panelScript = await fetch(`${url}/panel/assets/panel.js`);
    assert.equal(panelScript.status, 200, "the /panel page's bundle found from dist/");
    await panelScript.arrayBuffer();
    const [program, ...args] = healthCheckCommand();
    assert.equal(program, 'node', 'the slim runtime image has node but no curl');
    const check = await run(process.execPath, args, appDir, { ...process.env, PORT: new URL(url).port });
    assert.equal(check.code, 0, `HEALTHCHECK failed: ${check.output}`);
    entry.child.kill('SIGTERM');
    const { code, stderr, leftRunning } = await entry.exited;
    assert.deepEqual({ code, leftRunning }, { code: 0, leftRunning: false }, stderr);
  });

  it('on SIGTERM answers the request in flight, closes the event store and exits 0', async () => {
    entry = startEntry(appDir, dataDir);
    const { url } = (await entry.logged('listening')) as { url: string };
    const wal = path.join(dataDir, 'events.sqlite-wal');
    assert.ok(fs.existsSync(wal), 'the first start wrote to the log, so a -wal file is open');

    // A sign-in whose body arrives slowly: the server has taken the request (100 Continue) before SIGTERM.
    const body = JSON.stringify(ADMIN);
    const { socket, receivedWhen, closed } = rawConnection(Number(new URL(url).port));
    socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    assert.match(await receivedWhen(/\r\n\r\n/), /^HTTP\/1\.1 100 Continue\r\n\r\n$/);
    socket.write(body.slice(0, 10));

    entry.child.kill('SIGTERM');
    await entry.logged('shutting down');
    socket.write(body.slice(10)); // not end(): a client that half-closes has its request aborted by Node
    const response = (await closed).replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');

    assert.match(response, /^HTTP\/1\.1 200 OK\r\n/, response);
    assert.ok(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)).challenge, 'a sign-in challenge');
    const { code, signal, stderr, leftRunning } = await entry.exited;
    assert.deepEqual({ code, signal, leftRunning }, { code: 0, signal: null, leftRunning: false }, stderr);
    const order = entry.logs.map((l) => l.msg).filter((m) => m === 'shutting down' || m === 'event store closed');
    assert.deepEqual(order, ['shutting down', 'event store closed']);
    assert.ok(!fs.existsSync(wal), 'a clean close checkpoints the log and removes its -wal file');
  });
});
