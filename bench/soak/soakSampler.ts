// One sample of the service process a minute: resident memory, V8 heap used (prom-client's gauge on /metrics), open
// descriptors, the event log's and the read models' file sizes (with their -wal and -shm), and the load's counters.
import fs from 'node:fs';
import path from 'node:path';
import type { LoadCounters } from './soakLoad.js';

export interface SoakSample {
  minute: number;
  rssMiB: number;
  /** VmRSS split as the kernel counts it: anonymous (heap, native allocations, SQLite's page cache), file-backed, shared (SQLite's -shm maps). */
  rssAnonMiB: number;
  rssFileMiB: number;
  rssShmemMiB: number;
  /** V8 heap used at its lowest of the interval's readings (one every 5 s): the nearest to the live set after a GC. */
  heapUsedMiB: number;
  /** ...and at its highest (the sawtooth's top). */
  heapPeakMiB: number;
  /** V8 heap used right after the latest full GC (the service's gauge): the live set, judged for growth; 0 before the first. */
  heapLiveMiB: number;
  fds: number;
  /** The whole event log (database, -wal, -shm) and its -wal alone. */
  eventLogMiB: number;
  eventWalMiB: number;
  readModelMiB: number;
  readModelWalMiB: number;
  requests: number;
  errors: number;
  throttled: number;
}

const mib = (bytes: number) => Number((bytes / 2 ** 20).toFixed(2));

/** A `<key>: <n> kB` line of /proc/<pid>/status, in bytes. */
export function statusBytes(pid: number, key: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
}

export function openDescriptors(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/** Bytes of the files whose name starts with `stem` in DATA_DIR (the database, its -wal and -shm). */
export function filesBytes(dataDir: string, stem: string): number {
  return fs
    .readdirSync(dataDir)
    .filter((f) => f.startsWith(stem))
    .reduce((sum, f) => sum + fs.statSync(path.join(dataDir, f)).size, 0);
}

/** The heap used now, and right after the latest full GC (0 before the first), from the service's /metrics. */
export async function heapBytes(base: string, metricsToken: string): Promise<{ used: number; live: number }> {
  const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (!r.ok) throw new Error(`/metrics answered ${r.status}`);
  const text = await r.text();
  const used = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([\d.e+]+)/m.exec(text);
  if (!used) throw new Error('/metrics has no nodejs_heap_size_used_bytes');
  const live = /^nodejs_heap_used_after_major_gc_bytes ([\d.e+]+)/m.exec(text);
  return { used: Number(used[1]), live: Number(live?.[1] ?? 0) };
}

/** Reads the heap every few seconds between samples, so a sample reports the interval's floor and peak. */
export class HeapProbe {
  private low = Infinity;
  private high = 0;
  private live = 0;
  constructor(
    private readonly base: string,
    private readonly metricsToken: string,
  ) {}

  async probe(): Promise<void> {
    const { used, live } = await heapBytes(this.base, this.metricsToken);
    this.live = live;
    this.low = Math.min(this.low, used);
    this.high = Math.max(this.high, used);
  }

  /** The interval's floor and peak and the latest live set (after a last reading); starts a new interval. */
  async take(): Promise<{ floor: number; peak: number; live: number }> {
    await this.probe();
    const taken = { floor: this.low, peak: this.high, live: this.live };
    this.low = Infinity;
    this.high = 0;
    return taken;
  }
}

export async function takeSample(
  minute: number,
  pid: number,
  dataDir: string,
  heap: HeapProbe,
  counters: LoadCounters,
): Promise<SoakSample> {
  const { floor, peak, live } = await heap.take();
  return {
    minute: Number(minute.toFixed(2)),
    rssMiB: mib(statusBytes(pid, 'VmRSS')),
    rssAnonMiB: mib(statusBytes(pid, 'RssAnon')),
    rssFileMiB: mib(statusBytes(pid, 'RssFile')),
    rssShmemMiB: mib(statusBytes(pid, 'RssShmem')),
    heapUsedMiB: mib(floor),
    heapPeakMiB: mib(peak),
    heapLiveMiB: mib(live),
    fds: openDescriptors(pid),
    eventLogMiB: mib(filesBytes(dataDir, 'events.sqlite')),
    eventWalMiB: mib(filesBytes(dataDir, 'events.sqlite-wal')),
    readModelMiB: mib(filesBytes(dataDir, 'readmodels.sqlite')),
    readModelWalMiB: mib(filesBytes(dataDir, 'readmodels.sqlite-wal')),
    requests: counters.requests,
    errors: counters.errors,
    throttled: counters.throttled,
  };
}
