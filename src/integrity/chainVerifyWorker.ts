// Worker thread: recomputes a tenant's hash chain from the stored events, off the service's event loop, reporting
// progress and the first event whose stored hash differs from the recomputed one.
import type { ChainRow } from '../stores/sqlite/sqliteStatements.js';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { chainHashOfText, genesisHash, verifyChainSegment, type BrokenLink } from '../stores/chain/hashChain.js';
import { openEsdbEventStore } from '../stores/eventstoredb/esdbEventStore.js';

export type VerifyJob = { tenant: string } & ({ kind: 'sqlite'; file: string } | { kind: 'eventstoredb'; url: string });
export type VerifyMessage =
  | { type: 'progress'; checked: number; total: number }
  | { type: 'done'; checked: number; total: number; broken: BrokenLink | null; head: string | null }
  | { type: 'failed'; message: string };

const PROGRESS_EVERY = 2000;
const PAGE = 1000;
const post = (message: VerifyMessage) => parentPort!.postMessage(message);

/** The stored text itself is hashed again: exactly what the append hashed, so any edited byte shows. */
function verifySqlite(file: string, tenant: string): void {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    const genesis = db.prepare<[string], { p: number }>('SELECT from_position AS p FROM chain_genesis WHERE tenant = ?').get(tenant);
    if (!genesis) return post({ type: 'done', checked: 0, total: 0, broken: null, head: null });
    const read = db.transaction(() => {
      const total = db
        .prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM events WHERE tenant = ? AND position >= ?')
        .get(tenant, genesis.p)!.n;
      const rows = db
        .prepare<[string, number], ChainRow>(
          'SELECT position, stream, revision, event_id, type, data, metadata, hash FROM events WHERE tenant = ? AND position >= ? ORDER BY position',
        )
        .raw(true);
      let prev = genesisHash(tenant);
      let checked = 0;
      post({ type: 'progress', checked, total });
      for (const [position, stream, revision, eventId, type, data, metadata, hash] of rows.iterate(tenant, genesis.p)) {
        const expected = chainHashOfText(prev, eventId, stream, type, data, metadata);
        if (hash !== expected) {
          const broken = { position: String(position), eventId, stream, revision, expectedHash: expected, foundHash: hash };
          return post({ type: 'done', checked, total, broken, head: null });
        }
        prev = expected;
        if (++checked % PROGRESS_EVERY === 0) post({ type: 'progress', checked, total });
      }
      post({ type: 'done', checked, total, broken: null, head: prev });
    });
    read.deferred(); // one read snapshot: appends going on meanwhile are not half seen
  } finally {
    db.close();
  }
}

async function verifyEventStoreDb(url: string, tenant: string): Promise<void> {
  const store = await openEsdbEventStore({ url });
  try {
    const total = (await store.chainHead(tenant))?.count ?? 0;
    let prev = genesisHash(tenant);
    let checked = 0;
    let after: bigint | undefined;
    post({ type: 'progress', checked, total });
    for (;;) {
      const page = await store.readChain(tenant, { ...(after !== undefined ? { after } : {}), maxCount: PAGE });
      if (page.length === 0) return post({ type: 'done', checked, total, broken: null, head: checked > 0 ? prev : null });
      const result = verifyChainSegment(tenant, prev, page);
      if (!result.ok) return post({ type: 'done', checked: checked + result.checked, total, broken: result.broken, head: null });
      checked += result.checked;
      prev = result.head;
      after = page[page.length - 1]!.position;
      post({ type: 'progress', checked, total: Math.max(total, checked) });
    }
  } finally {
    await store.close();
  }
}

const job = workerData as VerifyJob;
try {
  if (job.kind === 'sqlite') verifySqlite(job.file, job.tenant);
  else await verifyEventStoreDb(job.url, job.tenant);
} catch (err) {
  post({ type: 'failed', message: (err as Error).message });
}
