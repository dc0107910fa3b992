// The soak's verdicts from its samples: memory flat after warm-up (RSS and the heap after full GCs: the median of the last
// third against the median of the first third after warm-up), descriptors flat within a small constant slack, no error.
import type { SoakSample } from './soakSampler.js';

export const MEMORY_GROWTH_LIMIT = 0.1;
/** Descriptors that come and go with the load (keep-alive sockets of the clients and of webhook deliveries). */
export const DESCRIPTOR_SLACK = 10;

/** RSS keeps settling for about 5 minutes under load (allocator arenas, SQLite's page cache): judged on longer windows. */
export const RSS_SETTLED_WINDOW_MINUTES = 5;

export interface Verdict {
  name: string;
  pass: boolean;
  detail: string;
  /** false: reported only (the run is too short to judge it); it then never fails the run. */
  judged?: boolean;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The samples after warm-up, cut in thirds: the first third is the baseline, the last third the end. */
export function thirds(samples: SoakSample[], warmupMinutes: number): { first: SoakSample[]; last: SoakSample[] } {
  const settled = samples.filter((s) => s.minute >= warmupMinutes);
  const third = Math.max(1, Math.floor(settled.length / 3));
  return { first: settled.slice(0, third), last: settled.slice(-third) };
}

function growth(name: string, key: 'rssMiB' | 'heapLiveMiB', first: SoakSample[], last: SoakSample[]): Verdict {
  // A live set of 0 is a sample taken before the service's first full GC: there is nothing to judge in it.
  const levels = (xs: SoakSample[]) => xs.map((s) => s[key]).filter((v) => key !== 'heapLiveMiB' || v > 0);
  if (levels(first).length === 0 || levels(last).length === 0)
    return { name, pass: false, detail: 'no full GC reported in the first or the last third after warm-up' };
  const base = median(levels(first));
  const end = median(levels(last));
  const ratio = base > 0 ? (end - base) / base : 0;
  return {
    name,
    pass: ratio < MEMORY_GROWTH_LIMIT,
    detail: `${base.toFixed(1)} -> ${end.toFixed(1)} MiB (${(ratio * 100).toFixed(1)} %, limit ${MEMORY_GROWTH_LIMIT * 100} %)`,
  };
}

export interface Outcome {
  errors: number;
  unexpected4xx: number;
  webhookUndelivered: number;
  webhookActive: boolean;
  rebuildFinished: boolean;
}

export function verdicts(samples: SoakSample[], warmupMinutes: number, outcome: Outcome): Verdict[] {
  const { first, last } = thirds(samples, warmupMinutes);
  const fdBase = Math.max(...first.map((s) => s.fds));
  const fdEnd = Math.max(...last.map((s) => s.fds));
  const window = samples.length > 0 ? samples[samples.length - 1]!.minute - warmupMinutes : 0;
  const rss = growth('rss flat after warm-up', 'rssMiB', first, last);
  const rssVerdict =
    window >= RSS_SETTLED_WINDOW_MINUTES
      ? rss
      : {
          ...rss,
          pass: true,
          judged: false,
          detail: `${rss.detail}; not judged: ${window.toFixed(1)} min after warm-up, judged from ${RSS_SETTLED_WINDOW_MINUTES} min`,
        };
  return [
    rssVerdict,
    // Heap used between GCs moves with their timing (floors 79-96 MiB on a flat live set): the heap after a full GC does not.
    growth('heap flat after warm-up', 'heapLiveMiB', first, last),
    {
      name: 'no descriptor growth',
      pass: fdEnd <= fdBase + DESCRIPTOR_SLACK,
      detail: `max ${fdBase} -> max ${fdEnd} (slack ${DESCRIPTOR_SLACK})`,
    },
    { name: 'no errors (5xx, transport)', pass: outcome.errors === 0, detail: `${outcome.errors}` },
    { name: 'no unexpected 4xx', pass: outcome.unexpected4xx === 0, detail: `${outcome.unexpected4xx}` },
    {
      name: 'webhook: every refused delivery retried and delivered, endpoint active',
      pass: outcome.webhookUndelivered === 0 && outcome.webhookActive,
      detail: `undelivered ${outcome.webhookUndelivered}, active ${outcome.webhookActive}`,
    },
    { name: 'projection rebuild finished', pass: outcome.rebuildFinished, detail: `${outcome.rebuildFinished}` },
  ];
}
