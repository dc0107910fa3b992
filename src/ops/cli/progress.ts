// One progress display for every long command: a bar with percent, rate and ETA on a terminal (cli-progress), plain
// lines when stderr is not a terminal, nothing with --json. Progress goes to stderr: stdout keeps only the result.
import cliProgress from 'cli-progress';

export type ProgressKind = 'bar' | 'lines' | 'none';

export interface ProgressUpdate {
  done: number;
  total: number;
  percent?: number;
  ratePerSecond?: number;
  etaSeconds?: number | null;
}

export interface Progress {
  update(p: ProgressUpdate): void;
  stop(): void;
}

const LINE_EVERY_MS = 1000;

/** The kind a command shows: forced by --progress, else none for --json, a bar on a terminal, lines otherwise. */
export function progressKind(opts: { json?: boolean; progress?: string }): ProgressKind {
  if (opts.progress === 'bar' || opts.progress === 'lines' || opts.progress === 'none') return opts.progress;
  if (opts.json) return 'none';
  return process.stderr.isTTY ? 'bar' : 'lines';
}

const percentOf = (p: ProgressUpdate) => p.percent ?? (p.total > 0 ? Math.floor((p.done * 1000) / p.total) / 10 : 0);
const etaText = (s: number | null | undefined) =>
  s === null || s === undefined ? '?' : s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;

export function startProgress(label: string, kind: ProgressKind): Progress {
  if (kind === 'none') return { update: () => undefined, stop: () => undefined };
  if (kind === 'lines') {
    let last = 0;
    let pending: ProgressUpdate | null = null;
    const line = (p: ProgressUpdate) =>
      process.stderr.write(
        `${label}: ${percentOf(p).toFixed(1)}% (${p.done}/${p.total}) ${p.ratePerSecond ?? 0}/s ETA ${etaText(p.etaSeconds)}\n`,
      );
    return {
      update(p) {
        pending = p;
        if (Date.now() - last < LINE_EVERY_MS) return;
        last = Date.now();
        line(p);
        pending = null;
      },
      stop() {
        if (pending) line(pending);
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s | ETA {etaText}`,
      stream: process.stderr,
      noTTYOutput: true, // --progress bar on a pipe still draws (one line per redraw)
      notTTYSchedule: 500,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { rate: p.ratePerSecond ?? 0, etaText: etaText(p.etaSeconds) };
      if (!started) {
        bar.start(Math.max(p.total, 1), p.done, payload);
        started = true;
        return;
      }
      bar.setTotal(Math.max(p.total, p.done, 1));
      bar.update(p.done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
