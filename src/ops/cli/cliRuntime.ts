// What every subcommand shares: the global options, the connection (through the service or offline), progress,
// the result printed as text or --json, and one-line errors with a non-zero exit code.
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { connect, OpsError, type Connection } from './connection.js';
import { progressKind, startProgress, type Progress } from './progress.js';

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
  json: boolean;
  progress(label: string): Progress;
  /** Text for a person, on stderr (nothing with --json). */
  note(line: string): void;
}

export type Action = (ctx: OpsContext) => Promise<CommandResult>;

export interface CliRuntime {
  /** Runs a subcommand's action: connects, prints the result, sets the exit code. */
  run(command: Command, action: Action): Promise<void>;
}

/** `--reason` on every command that changes state: its events carry it, like the reason of the same HTTP operation. */
export const withReason = (command: Command): Command =>
  command.requiredOption('--reason <text>', 'why (recorded with the events, as over HTTP)');

const oneLine = (message: string) => message.replace(/\s+/g, ' ').trim();

export function cliRuntime(): CliRuntime {
  return {
    async run(command, action) {
      const opts = command.optsWithGlobals<GlobalOptions>();
      const json = Boolean(opts.json);
      const note = (line: string) => void (json ? undefined : process.stderr.write(`${line}\n`));
      let conn: Connection | null = null;
      try {
        const config = loadConfig(process.env);
        if (opts.dataDir) config.dataDir = path.resolve(opts.dataDir);
        conn = await connect(config);
        const kind = progressKind(opts);
        const result = await action({ conn, json, note, progress: (label) => startProgress(label, kind) });
        const ok = result.ok ?? true;
        if (json) process.stdout.write(`${JSON.stringify({ ok, mode: conn.mode, where: conn.where, ...result.json })}\n`);
        else process.stdout.write(`(${conn.where})\n${result.text}\n`);
        if (!ok) process.exitCode = 1;
      } catch (err) {
        const message = oneLine(err instanceof OpsError || err instanceof Error ? err.message : String(err));
        if (json)
          process.stdout.write(
            `${JSON.stringify({ ok: false, error: message, ...(conn ? { mode: conn.mode, where: conn.where } : {}) })}\n`,
          );
        process.stderr.write(`dialysis-ops: error: ${message}${conn ? ` (${conn.where})` : ''}\n`);
        process.exitCode = 1;
      } finally {
        await conn?.close();
      }
    },
  };
}
