// npm run soak -- [--minutes 30] [--warmup-minutes M] [--sample-seconds 60] [--out DIR] [--workers 4] [--pause-ms 50]
// [--compiled] (dist/src/main.js, after npm run build) [--rebuild-at-minute M] (default half-way) [--read-cache-mib N] (the service's READ_STORE_CACHE_MIB: a short run takes a small cache, full within its warm-up)
// Runs the real service under mixed load for N minutes, samples it, writes figures.json, samples.csv and soak.png, prints
// the verdicts and exits 1 when one fails (memory or descriptors growing after warm-up, any error).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SoakLoad } from './soakLoad.js';
import { plotSoak } from './soakPlot.js';
import { startSoakReceiver } from './soakReceiver.js';
import { HeapProbe, takeSample, type SoakSample } from './soakSampler.js';
import { seedCaller, seedSoakCompany } from './soakSeed.js';
import { SOAK_CREDS, startSoakService } from './soakService.js';
import { freePort } from '../processes.js';
import { verdicts, DESCRIPTOR_SLACK, MEMORY_GROWTH_LIMIT } from './soakVerdict.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
};
const minutes = option('minutes', 30);
const warmupMinutes = option('warmup-minutes', Math.min(5, Math.max(1, minutes / 6)));
const sampleSeconds = option('sample-seconds', 60);
const workers = option('workers', 4);
const pauseMs = option('pause-ms', 50);
const rebuildAtMinute = option('rebuild-at-minute', minutes / 2);
const compiled = args.includes('--compiled');
const readCacheMiB = args.includes('--read-cache-mib') ? option('read-cache-mib', 64) : null;
const outIndex = args.indexOf('--out');
const out =
  outIndex >= 0
    ? path.resolve(args[outIndex + 1]!)
    : path.join(here, '../results', `soak-${new Date().toISOString().slice(0, 16).replace(':', '-')}`);
const log = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<number> {
  fs.mkdirSync(out, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const dataDir = path.join(scratch, 'data');
  const logFile = path.join(scratch, 'service.log');
  const receiver = await startSoakReceiver(0.2);
  const service = await startSoakService(
    dataDir,
    logFile,
    await freePort(),
    readCacheMiB ? { READ_STORE_CACHE_MIB: String(readCacheMiB) } : {},
    compiled,
  );
  log(
    `soak${compiled ? ' (compiled)' : ''}: ${minutes} min (warm-up ${warmupMinutes}, a sample every ${sampleSeconds} s), service pid ${service.pid}, data ${dataDir}`,
  );
  const load = new SoakLoad({ base: service.url, creds: SOAK_CREDS, workers, pauseMs });
  const samples: SoakSample[] = [];
  const rebuild = { projection: 'pacientes', requestedAtMinute: 0, finishedAfterSeconds: -1 };
  let stopped = false;
  try {
    if (!(await load.signIn())) throw new Error(`the first sign-in failed: ${load.counters.failures.join('; ')}`);
    const world = await seedSoakCompany(
      seedCaller(service.url, () => load.currentToken()),
      load.currentToken(),
      receiver.url,
    );
    load.world = world;
    const heap = new HeapProbe(service.url, service.metricsToken);
    let probedAt = 0;
    const started = Date.now();
    const minute = () => (Date.now() - started) / 60_000;
    const sample = async () => {
      if (service.exited()) throw new Error(`the service exited during the soak; see ${logFile}`);
      const s = await takeSample(minute(), service.pid, dataDir, heap, load.counters);
      samples.push(s);
      log(
        `  min ${s.minute.toFixed(1)}: rss ${s.rssMiB} MiB (anon ${s.rssAnonMiB}, file ${s.rssFileMiB}, shmem ${s.rssShmemMiB}), heap ${s.heapUsedMiB}-${s.heapPeakMiB} MiB (after full GC ${s.heapLiveMiB}), fds ${s.fds}, log ${s.eventLogMiB} MiB (wal ${s.eventWalMiB}), read models ${s.readModelMiB} MiB (wal ${s.readModelWalMiB}), requests ${s.requests}, errors ${s.errors}`,
      );
    };
    await sample();
    load.start();
    let rebuildAsked = false;
    let rebuilt: Promise<void> | null = null;
    for (let k = 1; k * sampleSeconds <= minutes * 60; k++) {
      while (Date.now() < started + k * sampleSeconds * 1000) {
        if (!rebuildAsked && minute() >= rebuildAtMinute) {
          rebuildAsked = true;
          rebuild.requestedAtMinute = Number(minute().toFixed(2));
          rebuilt = rebuildProjection(load, rebuild);
        }
        if (Date.now() - probedAt >= 5000) {
          probedAt = Date.now();
          await heap.probe();
        }
        await sleep(Math.min(1000, started + k * sampleSeconds * 1000 - Date.now()));
      }
      await sample();
    }
    await load.stop();
    stopped = true;
    await rebuilt;
    // Let the retries of the refused deliveries run (the schedule's first retries are 1 s, 2 s, 5 s).
    for (const until = Date.now() + 90_000; receiver.figures().undelivered > 0 && Date.now() < until;) await sleep(1000);
    const endpoint = await load.request('webhook-status', 'GET', `/sistema/webhooks/${world.webhookId}`);
    const webhook = { ...receiver.figures(), status: String(endpoint?.status) };
    const c = load.counters;
    const results = verdicts(samples, warmupMinutes, {
      errors: c.errors,
      unexpected4xx: c.unexpected4xx,
      webhookUndelivered: webhook.undelivered,
      webhookActive: webhook.status === 'enabled',
      rebuildFinished: rebuild.finishedAfterSeconds >= 0,
    });
    const dataFiles = Object.fromEntries(fs.readdirSync(dataDir).map((f) => [f, fs.statSync(path.join(dataDir, f)).size]));
    const exitCode = await service.stop();
    const figures = {
      at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      options: {
        compiled,
        minutes,
        warmupMinutes,
        rebuildAtMinute,
        sampleSeconds,
        workers,
        pauseMs,
        readCacheMiB: readCacheMiB ?? 'default (64)',
      },
      limits: { memoryGrowth: MEMORY_GROWTH_LIMIT, descriptorSlack: DESCRIPTOR_SLACK },
      load: c,
      rebuild,
      webhook,
      serviceExitCode: exitCode,
      dataFiles,
      verdicts: results,
      samples,
    };
    fs.writeFileSync(path.join(out, 'figures.json'), JSON.stringify(figures, null, 2) + '\n');
    const columns = Object.keys(samples[0]!) as (keyof SoakSample)[];
    const rows = samples.map((s) => columns.map((k) => s[k]).join(','));
    fs.writeFileSync(path.join(out, 'samples.csv'), [columns.join(','), ...rows].join('\n') + '\n');
    fs.writeFileSync(path.join(out, 'soak.png'), plotSoak(samples));
    log(
      `\nrequests ${c.requests} (${JSON.stringify(c.byOperation)}), errors ${c.errors}, 429 ${c.throttled}, other 4xx ${c.unexpected4xx}`,
    );
    log(
      `sign-ins ${c.signIns}, sessions started ${c.sessionsStarted}, ended ${c.sessionsEnded}; rebuild of ${rebuild.projection} at min ${rebuild.requestedAtMinute}: ${rebuild.finishedAfterSeconds} s`,
    );
    log(
      `webhook: ${webhook.attempts} attempts, ${webhook.refused} refused (500), ${webhook.delivered} delivered, ${webhook.undelivered} undelivered, endpoint ${webhook.status}`,
    );
    for (const f of c.failures) log(`  failure: ${f}`);
    for (const v of results) log(`${v.judged === false ? 'INFO' : v.pass ? 'PASS' : 'FAIL'} ${v.name}: ${v.detail}`);
    log(`figures: ${path.join(out, 'figures.json')}, plot: ${path.join(out, 'soak.png')}`);
    fs.rmSync(scratch, { recursive: true, force: true });
    return results.every((v) => v.pass) ? 0 : 1;
  } finally {
    if (!stopped) await load.stop();
    await service.stop();
    await receiver.close();
  }
}

/** POST /sistema/proyecciones/{name}/reconstruir, then its status until it is live again. */
async function rebuildProjection(load: SoakLoad, rebuild: { projection: string; finishedAfterSeconds: number }): Promise<void> {
  const asked = Date.now();
  if (!(await load.request('rebuild', 'POST', `/sistema/proyecciones/${rebuild.projection}/reconstruir`, {}))) return;
  for (const until = asked + 600_000; Date.now() < until;) {
    await sleep(1000);
    const status = await load.request('rebuild', 'GET', `/sistema/proyecciones/${rebuild.projection}`);
    if (status?.state === 'live') {
      rebuild.finishedAfterSeconds = Number(((Date.now() - asked) / 1000).toFixed(1));
      return;
    }
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
