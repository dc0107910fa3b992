// Sistema for integrators and operators (issue 24) on the real service over HTTP, on a copy of a log holding N
// company events: change feed pages and the append-to-SSE latency, webhook deliveries to a loopback receiver, the
// company export (events/s, the service's peak RSS meanwhile) and an online backup taken while appends run.
import fs from 'node:fs';
import path from 'node:path';
import { READ_STORE_FILE } from '../src/stores/openReadStore.js';
import { memoryOf, startService, type Started } from './processes.js';
import { ensureScaleLog } from './scaleLog.js';
import { signIn, type LatencyFigures } from './scaleQueries.js';
import type { BenchCredentials } from './http.js';
import { Arrivals, clientOf, nowMs, openFeedStream, registerPatient, startHookReceiver, summarize, type Client } from './sistemaClient.js';

const RUNS = 100;
const WARM_UP = 10;
const WRITES = 200;
const BURST = 1_000;
const BURST_WRITERS = 16;
const BACKUP_WRITERS = 4;
const READY_LIMIT_MS = 60 * 60_000;

export interface SistemaFigures {
  /** The company's events in the log (the export's count), and the whole log's (two companies). */
  companyEvents: number;
  logEvents: number;
  firstStartSeconds: number;
  feed: Record<string, LatencyFigures & { items: number }>;
  sseAppendToArrival: LatencyFigures & { writes: number };
  webhooks: {
    appendToDelivery: LatencyFigures & { writes: number };
    burst: { deliveries: number; appendsPerSecond: number; deliveriesPerSecond: number; drainAfterLastAppendMs: number };
  };
  export: {
    events: number;
    records: number;
    seconds: number;
    eventsPerSecond: number;
    megabytes: number;
    rssBeforeMiB: number;
    peakRssMiB: number;
  };
  backup: { seconds: number; megabytes: number; headPosition: string; appendsDuring: number; appendsPerSecondDuring: number };
}

type Page = { items: unknown[]; nextFrom: string; head: string };

async function timedPage(client: Client, query: (i: number) => string): Promise<LatencyFigures & { items: number }> {
  let items = 0;
  const run = async (i: number) => (items = ((await client('GET', `/sistema/eventos?${query(i)}`)).body as unknown as Page).items.length);
  for (let i = 0; i < WARM_UP; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = nowMs();
    await run(i);
    samples.push(nowMs() - start);
  }
  return { ...summarize(samples), items };
}

async function benchFeed(client: Client): Promise<SistemaFigures['feed']> {
  const head = BigInt(((await client('GET', '/sistema/eventos?limit=1')).body as unknown as Page).head);
  const middle = head / 2n;
  const feed: SistemaFigures['feed'] = {};
  for (const limit of [100, 500]) {
    // The log interleaves two companies: 3 x limit positions before the head hold more than a page of the company's.
    const nearHead = head - BigInt(3 * limit);
    feed[`start, limit ${limit}`] = await timedPage(client, () => `from=0&limit=${limit}`);
    feed[`middle, limit ${limit}`] = await timedPage(client, () => `from=${middle}&limit=${limit}`);
    feed[`head, limit ${limit}`] = await timedPage(client, () => `from=${nearHead}&limit=${limit}`);
  }
  // No job position in the dataset: the page scans its budget of events and answers few (or no) items.
  feed['recordType=jobPosition (few match), limit 100'] = await timedPage(client, () => `from=${middle}&limit=100&recordType=jobPosition`);
  return feed;
}

async function benchSse(url: string, token: string, client: Client): Promise<SistemaFigures['sseAppendToArrival']> {
  const head = ((await client('GET', '/sistema/eventos?limit=1')).body as unknown as Page).head;
  const arrivals = new Arrivals();
  const stream = await openFeedStream(url, token, head, arrivals);
  const samples: number[] = [];
  try {
    for (let i = 0; i < WRITES + WARM_UP; i++) {
      const sent = nowMs();
      const { id } = await registerPatient(client);
      const arrived = await arrivals.waitFor(id);
      if (i >= WARM_UP) samples.push(arrived - sent);
    }
  } finally {
    stream.close();
  }
  return { ...summarize(samples), writes: WRITES };
}

async function benchWebhooks(client: Client): Promise<SistemaFigures['webhooks']> {
  const arrivals = new Arrivals();
  const receiver = await startHookReceiver(arrivals);
  const registered = await client('POST', '/sistema/webhooks', { url: receiver.url, description: 'bench', eventTypes: ['patient'] });
  const endpointId = (registered.body.endpoint as { id: string }).id;
  try {
    const samples: number[] = [];
    for (let i = 0; i < WRITES + WARM_UP; i++) {
      const sent = nowMs();
      const { id } = await registerPatient(client);
      const delivered = await arrivals.waitFor(id);
      if (i >= WARM_UP) samples.push(delivered - sent);
    }
    // A burst of appends by concurrent writers: deliveries/s from its start to the last delivery.
    const ids: string[] = [];
    let lastAck = 0;
    let issued = 0;
    const start = nowMs();
    await Promise.all(
      Array.from({ length: BURST_WRITERS }, async () => {
        while (issued++ < BURST) {
          const { id, ackAt } = await registerPatient(client);
          ids.push(id);
          lastAck = Math.max(lastAck, ackAt);
        }
      }),
    );
    let lastDelivery = 0;
    for (const id of ids) lastDelivery = Math.max(lastDelivery, await arrivals.waitFor(id, 300_000));
    const burst = {
      deliveries: ids.length,
      appendsPerSecond: Math.round(ids.length / ((lastAck - start) / 1000)),
      deliveriesPerSecond: Math.round(ids.length / ((lastDelivery - start) / 1000)),
      drainAfterLastAppendMs: Math.round(lastDelivery - lastAck),
    };
    return { appendToDelivery: { ...summarize(samples), writes: WRITES }, burst };
  } finally {
    await client('POST', `/sistema/webhooks/${endpointId}/desactivacion`, { reason: 'bench done' });
    await receiver.close();
  }
}

async function benchExport(client: Client, service: Started): Promise<SistemaFigures['export']> {
  const pid = service.child.pid!;
  const rssBeforeMiB = memoryOf(pid).rssMiB;
  let peakRssMiB = rssBeforeMiB;
  const sampler = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, memoryOf(pid).rssMiB)), 25);
  const start = nowMs();
  try {
    const started = await client('POST', '/sistema/exportaciones', { reason: 'bench' });
    const id = started.body.id as string;
    for (;;) {
      const job = (await client('GET', `/sistema/exportaciones/${id}`)).body as {
        state: string;
        progress: { eventsTotal: number; recordsDone: number; bytes: number };
      };
      if (job.state === 'failed') throw new Error(`export failed: ${JSON.stringify(job)}`);
      if (job.state === 'ready') {
        const seconds = (nowMs() - start) / 1000;
        const { eventsTotal, recordsDone, bytes } = job.progress;
        return {
          events: eventsTotal,
          records: recordsDone,
          seconds: Number(seconds.toFixed(2)),
          eventsPerSecond: Math.round(eventsTotal / seconds),
          megabytes: Number((bytes / 2 ** 20).toFixed(1)),
          rssBeforeMiB,
          peakRssMiB,
        };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    clearInterval(sampler);
  }
}

async function benchBackup(client: Client): Promise<SistemaFigures['backup']> {
  let running = true;
  let appends = 0;
  const writers = Array.from({ length: BACKUP_WRITERS }, async () => {
    while (running) {
      await registerPatient(client);
      appends++;
    }
  });
  await new Promise((r) => setTimeout(r, 1_000)); // the appends are under way
  const before = appends;
  const start = nowMs();
  try {
    const taken = (await client('POST', '/sistema/respaldos')).body as { size: number; headPosition: string };
    const seconds = (nowMs() - start) / 1000;
    const appendsDuring = appends - before;
    return {
      seconds: Number(seconds.toFixed(2)),
      megabytes: Number((taken.size / 2 ** 20).toFixed(1)),
      headPosition: taken.headPosition,
      appendsDuring,
      appendsPerSecondDuring: Math.round(appendsDuring / seconds),
    };
  } finally {
    running = false;
    await Promise.all(writers);
  }
}

export async function benchSistema(o: {
  scratch: string;
  companyEvents: number;
  port: number;
  env: Record<string, string>;
  creds: BenchCredentials;
  log: (s: string) => void;
}): Promise<SistemaFigures> {
  // The scale section's log: the bench company holds half of its patients, so twice the events make N of the company's.
  const source = await ensureScaleLog(o.scratch, 2 * o.companyEvents, { env: o.env, port: o.port }, o.log);
  const dir = path.join(o.scratch, 'sistema');
  fs.rmSync(dir, { recursive: true, force: true });
  const readModel = new Set(['', '-wal', '-shm'].map((s) => READ_STORE_FILE + s));
  fs.cpSync(source.dir, dir, { recursive: true, filter: (from) => !readModel.has(path.basename(from)) });
  o.log(`  first start over ${source.events} events (every projection catches up) ...`);
  const service = await startService({ ...o.env, DATA_DIR: dir, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, o.port, [], READY_LIMIT_MS);
  try {
    const token = await signIn(service.url, o.creds);
    const client = clientOf(service.url, token);
    o.log('  change feed pages ...');
    const feed = await benchFeed(client);
    o.log('  append to SSE arrival ...');
    const sseAppendToArrival = await benchSse(service.url, token, client);
    o.log('  webhooks ...');
    const webhooks = await benchWebhooks(client);
    o.log('  company export ...');
    const exported = await benchExport(client, service);
    o.log('  online backup while appends run ...');
    const backup = await benchBackup(client);
    return {
      companyEvents: exported.events,
      logEvents: source.events,
      firstStartSeconds: Number((service.readyMs / 1000).toFixed(1)),
      feed,
      sseAppendToArrival,
      webhooks,
      export: exported,
      backup,
    };
  } finally {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
