// Progress of a rebuild. The total is extrapolated from how far through the log the replay is
// (positions need not be event counts: EventStoreDB's are byte offsets), and exact at the end.
import type { RebuildProgress } from './runnerTypes.js';

export function rebuildProgress(
  projection: string,
  state: { done: number; position: bigint; head: bigint; startedAt: number; finished: boolean },
): RebuildProgress {
  const { done, position, head, startedAt, finished } = state;
  const elapsedMs = Math.max(0, Date.now() - startedAt);
  const total =
    finished || position <= 0n || position >= head ? done : Math.max(done, Math.round((done * Number(head)) / Number(position)));
  const ratePerSecond = elapsedMs > 0 ? Math.round((done * 1000) / elapsedMs) : 0;
  const etaSeconds = finished ? 0 : ratePerSecond > 0 ? Math.ceil((total - done) / ratePerSecond) : null;
  const percent = finished ? 100 : total > 0 ? Math.min(99.9, Math.floor((done * 1000) / total) / 10) : 0;
  return { projection, done, total, percent, ratePerSecond, etaSeconds, elapsedMs, startedAt: new Date(startedAt).toISOString() };
}
