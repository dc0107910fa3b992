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
    heapLiveMiB: heapAt(minute),
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

  it('judges the heap by its size after full GCs: floors between GCs move with their timing, a growing live set moves it', () => {
    // A 5-minute run's samples after warm-up: floors between GCs 89-112 MiB, the heap after full GCs 81.7-83.5 MiB. The live
    // set was flat (another run's heap snapshots at 1.7 and 4.8 min: 108.8 -> 111.8 MiB with native buffers), yet a CI run
    // failed at +14.3 % by the lowest floor of each third.
    const floors = [89.35, 97.47, 93.5, 95.52, 97.33, 97.55, 94.38, 112.14, 102.57, 90.07];
    const afterFullGc = [83.51, 83.51, 82.22, 82.22, 81.69, 82.38, 82.38, 82.38, 82.99, 82.94];
    const at = (live: number[], heaps = floors) =>
      samples(3, () => 480)
        .filter((s) => s.minute < 1.5)
        .concat(
          heaps.map((heap, i) => ({
            ...samples(0, () => 480)[0]!,
            minute: 1.5 + i / 6,
            heapUsedMiB: heap,
            heapPeakMiB: heap + 20,
            heapLiveMiB: live[i]!,
          })),
        );
    assert.equal(named(verdicts(at(afterFullGc), 1.5, outcome), 'heap flat after warm-up').pass, true);
    const leaking = afterFullGc.map((live, i) => live + i * 2); // +18 MiB of live set over the window
    assert.equal(named(verdicts(at(leaking), 1.5, outcome), 'heap flat after warm-up').pass, false);
    const neverCollected = verdicts(at(afterFullGc.map(() => 0)), 1.5, outcome);
    assert.deepEqual(
      [named(neverCollected, 'heap flat after warm-up').pass, named(neverCollected, 'heap flat after warm-up').detail],
      [false, 'no full GC reported in the first or the last third after warm-up'],
    );
  });
});
