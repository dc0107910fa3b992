// A private PostgreSQL cluster for the benchmark's peer (issue 12): Debian's package (installed here with apt-get when
// missing and the bench runs as root), initialised in a temporary folder, on its own port, stopped after the run.
// Where it cannot be had, the bench says so loudly and goes on without that peer.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PostgresCluster {
  url: string;
  stop(): void;
}

function binDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((v) => path.join(base, v, 'bin')).find((d) => fs.existsSync(path.join(d, 'initdb')));
  return found ?? null;
}

function install(log: (s: string) => void): void {
  if (process.getuid?.() !== 0) return;
  log('PostgreSQL not found: installing Debian package postgresql (apt-get)...');
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  spawnSync('apt-get', ['install', '-y', '-qq', 'postgresql'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Starts a throwaway cluster, or returns null after saying loudly why it could not. */
export function startPostgres(port: number, log: (s: string) => void): PostgresCluster | null {
  let bin = binDir();
  if (!bin) {
    install(log);
    bin = binDir();
  }
  if (!bin) {
    log('!!! PostgreSQL is not available (Debian package postgresql could not be installed): the PostgreSQL peer is skipped !!!');
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  // initdb and postgres refuse to run as root: as root, the cluster belongs to the package's postgres user.
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'ignore' })
      : execFileSync(cmd, args, { stdio: 'ignore' });
  try {
    if (asRoot) execFileSync('chown', ['postgres:', dir]);
    const data = path.join(dir, 'data');
    run(path.join(bin, 'initdb'), ['-D', data, '-U', 'bench', '--auth=trust', '-E', 'UTF8']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c synchronous_commit=on -c max_connections=100`;
    run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    return {
      url: `postgres://bench@127.0.0.1:${port}/postgres`,
      stop: () => {
        try {
          run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    log(`!!! PostgreSQL could not start (${String(err)}): the PostgreSQL peer is skipped !!!`);
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
}
