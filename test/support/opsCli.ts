// Runs the operations command line as a child process, the way `npm run ops -- <command>` does (node + tsx).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiJson } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed (for --json runs), else null. */
  json: ApiJson;
}

export function runOps(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<OpsRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/ops/cli/main.ts', '--data-dir', dataDir, ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: ApiJson;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = null;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
