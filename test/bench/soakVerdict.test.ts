// The soak's verdicts: memory growth after warm-up fails a run, RSS only on a window long enough for it to settle.
import assert from 'node:assert/strict';
import type { SoakSample } from '../../bench/soak/soakSampler.js';
import { verdicts, type Verdict } from '../../bench/soak/soakVerdict.js';

const outcome = { errors: 0, unexpected4xx: 0, webhookUndelivered: 0, webhookActive: true, rebuildFinished: true };

function samples(minutes: number, rssAt: (minute: number) => number, heapAt: (minute: number) => number = () => 100): SoakSample[] {
  return Array.from({ length: minutes + 1 }, (_, minute) => ({
    minute,
    rssMiB: rssAt(minute),
    rssAnonMiB: 0,
    rssFileMiB: 0,
    rssShmemMiB: 0,
    heapUsedMiB: heapAt(minute),
    heapPeakMiB: heapAt(minute),
    fds: 35,
    eventLogMiB: 0,
    eventWalMiB: 0,
    readModelMiB: 0,
    readModelWalMiB: 0,
  })) as SoakSample[];
}

const named = (all: Verdict[], name: string): Verdict => all.find((v) => v.name === name)!;

describe('soak verdicts', () => {
  it('fails RSS growing 20 % over a 25-minute window, and passes a flat one', () => {
    const growing = verdicts(
      samples(30, (m) => 500 + m * 5),
      5,
      outcome,
    );
    assert.equal(named(growing, 'rss flat after warm-up').pass, false);
    const flat = verdicts(
      samples(30, () => 500),
      5,
      outcome,
    );
    assert.equal(named(flat, 'rss flat after warm-up').pass, true);
    assert.notEqual(named(flat, 'rss flat after warm-up').judged, false);
  });

  it('reports RSS without judging it on a window under 5 minutes, but still judges the heap', () => {
    const short = verdicts(
      samples(
        3,
        (m) => 500 + m * 50,
        (m) => 100 + m * 20,
      ),
      1,
      outcome,
    );
    const rss = named(short, 'rss flat after warm-up');
    assert.deepEqual([rss.pass, rss.judged], [true, false]);
    assert.match(rss.detail, /not judged/);
    assert.equal(named(short, 'heap flat after warm-up').pass, false);
  });

  it('judges the heap by the lowest floor of each third: GC timing moves single floors, a growing live set moves all', () => {
    // The floors of a CI run (3 min, warm-up 1.5, a sample every 10 s) whose live set was flat: medians said +10.4 %.
    const recorded = [106.76, 86.37, 88.53, 92.51, 110.84, 84.79, 91.59, 91.32, 98.74, 97.76];
    const at = (heaps: number[]) =>
      samples(3, () => 480)
        .filter((s) => s.minute < 1.5)
        .concat(heaps.map((heap, i) => ({ ...samples(0, () => 480)[0]!, minute: 1.5 + i / 6, heapUsedMiB: heap, heapPeakMiB: heap + 20 })));
    assert.equal(named(verdicts(at(recorded), 1.5, outcome), 'heap flat after warm-up').pass, true);
    const leaking = recorded.map((heap, i) => heap + i * 2); // +18 MiB of live set over the window
    assert.equal(named(verdicts(at(leaking), 1.5, outcome), 'heap flat after warm-up').pass, false);
  });
});
