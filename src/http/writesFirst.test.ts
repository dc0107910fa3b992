// Writes first (issue 29): on a real HTTP server with many readers, a write whose steps each need a turn of the event
// loop (as a group commit, an fsync's completion and a projection flush do) is not held behind every ready read.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writesFirst, type RequestHandler } from './writesFirst.js';
import { writePrioritySettings } from '../writePrioritySettings.js';

const READERS = 40;
/** Turns of the event loop a write needs before it can answer. */
const WRITE_TURNS = 5;

/** Holds the thread as a read's handling does (auth, the page read, serialised and written). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Served {
  url: string;
  reads: () => number;
  /** Reads answered while the last write was in flight (from its arrival to its answer). */
  readsDuringWrite: () => number;
  /** Releases the held writes (`/held`). */
  release: () => void;
  close: () => Promise<void>;
}

async function serve(budgetMs: number): Promise<Served> {
  let reads = 0;
  let duringWrite = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const handle: RequestHandler = async (req, res) => {
    if (req.method === 'GET') {
      // As a Koa read does: its middleware awaits in turn, so most of its work runs in microtasks after the call.
      for (let step = 0; step < 4; step++) {
        await Promise.resolve();
        busy(0.25);
      }
      reads++;
      res.end('read');
      return;
    }
    req.resume();
    const arrived = reads;
    if (req.url === '/held') await held;
    else for (let i = 0; i < WRITE_TURNS; i++) await nextTurn();
    duringWrite = reads - arrived;
    res.statusCode = 201;
    res.end('written');
  };
  const listener = writesFirst(handle, { readBudgetMs: budgetMs });
  const server = http.createServer((req, res) => void listener(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reads: () => reads,
    readsDuringWrite: () => duringWrite,
    release,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function request(url: string, agent: http.Agent, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

/** READERS connections reading in a loop until stopped; resolves with the answers they got. */
function readers(url: string): { stop: () => Promise<number> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: READERS });
  let stopped = false;
  let answered = 0;
  const loops = Array.from({ length: READERS }, async () => {
    while (!stopped) {
      assert.equal(await request(`${url}/pacientes`, agent), 200);
      answered++;
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      return answered;
    },
  };
}

/** Reads answered by the server while one write is in flight, amid READERS busy readers. */
async function readsDuringOneWrite(budgetMs: number): Promise<number> {
  const served = await serve(budgetMs);
  const load = readers(served.url);
  try {
    // Every reader has had answers: the reads arrive continuously, as under a load.
    for (let until = Date.now() + 10_000; served.reads() < READERS * 3; await new Promise((r) => setTimeout(r, 5)))
      if (Date.now() > until) throw new Error(`the readers got only ${served.reads()} answers in 10 s`);
    const writer = new http.Agent({ keepAlive: false });
    assert.equal(await request(`${served.url}/pacientes`, writer, 'POST'), 201);
    return served.readsDuringWrite();
  } finally {
    await load.stop();
    await served.close();
  }
}

describe('writes first: reads wait while a write is in flight', () => {
  it('a write needing several turns of the loop is not held behind every ready read (each turn serves a budget of reads)', async () => {
    const reads = await readsDuringOneWrite(2);
    // Without priority each of its turns serves every ready read first: about WRITE_TURNS x READERS reads.
    assert.ok(
      reads < READERS,
      `${reads} reads were answered while one write waited ${WRITE_TURNS} turns among ${READERS} readers: the write was held behind them`,
    );
  });

  it('reads still flow while a write is held for long (at least one per turn), and all are answered once it ends', async () => {
    const served = await serve(2);
    const load = readers(served.url);
    try {
      const writer = new http.Agent({ keepAlive: false });
      const write = request(`${served.url}/held`, writer, 'POST');
      await new Promise((r) => setTimeout(r, 100));
      const during = served.reads();
      for (let until = Date.now() + 10_000; served.reads() < during + READERS * 2; await new Promise((r) => setTimeout(r, 5)))
        if (Date.now() > until) throw new Error(`reads stalled behind a held write: ${served.reads() - during} answered in 10 s`);
      served.release();
      assert.equal(await write, 201);
    } finally {
      assert.ok((await load.stop()) > 0);
      await served.close();
    }
  });

  it('WRITE_PRIORITY_READ_BUDGET_MS: 2 ms by default, 0 turns the priority off, anything else is refused', () => {
    assert.deepEqual(writePrioritySettings({}), { readBudgetMs: 2 });
    assert.deepEqual(writePrioritySettings({ WRITE_PRIORITY_READ_BUDGET_MS: '0' }), { readBudgetMs: 0 });
    assert.deepEqual(writePrioritySettings({ WRITE_PRIORITY_READ_BUDGET_MS: '0.5' }), { readBudgetMs: 0.5 });
    for (const bad of ['-1', 'fast', '5000'])
      assert.throws(() => writePrioritySettings({ WRITE_PRIORITY_READ_BUDGET_MS: bad }), /WRITE_PRIORITY_READ_BUDGET_MS/);
  });

  it('off (budget 0): the handler itself, unchanged', () => {
    const handle: RequestHandler = () => undefined;
    assert.equal(writesFirst(handle, { readBudgetMs: 0 }), handle);
  });
});
