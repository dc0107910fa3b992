// What every subcommand shares: the global options, the connection (through the service or offline), progress,
// the result printed as text or --json, and one-line errors with a non-zero exit code.
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../../config.js';
import { connect, OpsError, type Connection } from './connection.js';
import { progressKind, startProgress, type Progress } from './progress.js';
import { acquireServiceLock, type ServiceLock } from '../serviceLock.js';

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
  progress?: string;
}

export interface CommandResult {
  /** The --json answer (mode and where are added). */
  json: Record<string, unknown>;
  /** Lines for a person. */
  text: string;
  /** false: printed, then exit code 1 (e.g. a verification that found tampering). */
  ok?: boolean;
}

export interface OpsContext {
  conn: Connection;
  /** The data directory (the running service's too: the lock was read there). */
  dataDir: string;
  json: boolean;
  progress(label: string): Progress;
  /** Text for a person, on stderr (nothing with --json). */
  note(line: string): void;
}

export type Action = (ctx: OpsContext) => Promise<CommandResult>;

/** A command that replaces files under the stores (restore, import): the service stopped, its lock held meanwhile. */
export interface OfflineContext extends Omit<OpsContext, 'conn'> {
  config: Config;
}

export type OfflineAction = (ctx: OfflineContext) => Promise<CommandResult>;

export interface CliRuntime {
  /** Runs a subcommand's action: connects, prints the result, sets the exit code. */
  run(command: Command, action: Action): Promise<void>;
  /** Runs it holding DATA_DIR/service.lock (refused, naming the holder, while a service runs), without starting one. */
  runOffline(command: Command, action: OfflineAction): Promise<void>;
}

/** `--reason` on every command that changes state: its events carry it, like the reason of the same HTTP operation. */
export const withReason = (command: Command): Command =>
  command.requiredOption('--reason <text>', 'why (recorded with the events, as over HTTP)');

const oneLine = (message: string) => message.replace(/\s+/g, ' ').trim();

interface Place {
  mode: 'service' | 'offline';
  where: string;
}

/** Prints the result (or the error) in one form or the other and sets the exit code. */
async function perform(
  command: Command,
  body: (common: Omit<OpsContext, 'conn'>, config: Config, place: (p: Place) => void) => Promise<CommandResult>,
) {
  const opts = command.optsWithGlobals<GlobalOptions>();
  const json = Boolean(opts.json);
  const note = (line: string) => void (json ? undefined : process.stderr.write(`${line}\n`));
  let at: Place | null = null;
  try {
    const config = loadConfig(process.env);
    if (opts.dataDir) config.dataDir = path.resolve(opts.dataDir);
    const kind = progressKind(opts);
    const common = { dataDir: config.dataDir, json, note, progress: (label: string) => startProgress(label, kind) };
    const result = await body(common, config, (p) => (at = p));
    const ok = result.ok ?? true;
    const place = at as Place | null;
    if (json) process.stdout.write(`${JSON.stringify({ ok, mode: place?.mode, where: place?.where, ...result.json })}\n`);
    else process.stdout.write(`(${place?.where})\n${result.text}\n`);
    if (!ok) process.exitCode = 1;
  } catch (err) {
    const message = oneLine(err instanceof OpsError || err instanceof Error ? err.message : String(err));
    const place = at as Place | null;
    if (json)
      process.stdout.write(
        `${JSON.stringify({ ok: false, error: message, ...(place ? { mode: place.mode, where: place.where } : {}) })}\n`,
      );
    process.stderr.write(`dialysis-ops: error: ${message}${place ? ` (${place.where})` : ''}\n`);
    process.exitCode = 1;
  }
}

export function cliRuntime(): CliRuntime {
  return {
    run: (command, action) =>
      perform(command, async (common, config, place) => {
        const conn = await connect(config);
        try {
          place(conn);
          return await action({ ...common, conn });
        } finally {
          await conn.close();
        }
      }),
    runOffline: (command, action) =>
      perform(command, async (common, config, place) => {
        let lock: ServiceLock;
        try {
          lock = await acquireServiceLock(config.dataDir);
        } catch (err) {
          throw new OpsError(`${(err as Error).message} (this command runs only with the service stopped)`);
        }
        place({ mode: 'offline', where: `on the data directory ${config.dataDir} (service stopped; its lock held meanwhile)` });
        try {
          return await action({ ...common, config });
        } finally {
          await lock.release();
        }
      }),
  };
}
