// Group commit: the appends queued during one tick are written in one IMMEDIATE transaction (one commit, made
// durable by one WAL flush: walDurability.ts); each append is checked on its own and runs in its own savepoint,
// so a failing one rejects alone. Each event's chain hash (chain/hashChain.ts) is computed and stored with it.
import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision, NewEvent } from '../eventStore.js';
import { IdempotencyConflictError, WrongExpectedRevisionError, tenantOfStream } from '../eventStore.js';
import { retryStartMatches, revisionMatches, sameEventContent } from '../eventMatching.js';
import type { EventRow, Statements } from './sqliteStatements.js';
import { chainHashOfText, genesisHash } from '../chain/hashChain.js';

export interface PendingAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

export type AppendOutcome = { ok: AppendResult; wrote: boolean } | { error: unknown };

export function createBatchWriter(db: Database.Database, st: Statements) {
  /** Each tenant's chain head within the running transaction: looked up once per tenant and batch, then kept here. */
  let chainHeads = new Map<string, string>();
  /** The hash the tenant's next event chains to, and whether this append starts the tenant's chain. */
  const chainStart = (tenant: string): { prev: string; genesis: boolean } => {
    const cached = chainHeads.get(tenant);
    if (cached !== undefined) return { prev: cached, genesis: false };
    const last = st.tenantLastHash.get(tenant)?.hash ?? null;
    return last === null ? { prev: genesisHash(tenant), genesis: true } : { prev: last, genesis: false };
  };

  const insertEvents = (p: PendingAppend, current: number, tenant: string, start: { prev: string; genesis: boolean }) => {
    let position = 0;
    let prev = start.prev;
    p.events.forEach((e, i) => {
      const id = e.id.toLowerCase();
      const data = JSON.stringify(e.data);
      const metadata = JSON.stringify(e.metadata);
      prev = chainHashOfText(prev, id, p.stream, e.type, data, metadata);
      const info = st.insert.run(p.stream, current + 1 + i, tenant, id, e.type, data, metadata, prev);
      position = Number(info.lastInsertRowid);
      if (i === 0 && start.genesis) st.insertGenesis.run(tenant, position);
    });
    return { result: { nextExpectedRevision: current + p.events.length, position: BigInt(position) }, head: prev };
  };
  // Nested better-sqlite3 transaction = SAVEPOINT: a throw rolls back this append's rows only.
  const insertInSavepoint = db.transaction(insertEvents);
  const insertAll = (p: PendingAppend, current: number): AppendResult => {
    const tenant = tenantOfStream(p.stream);
    const start = chainStart(tenant);
    // One INSERT is atomic by itself, so a single-event append that starts no chain skips the savepoint round trip.
    const { result, head } =
      p.events.length === 1 && !start.genesis ? insertEvents(p, current, tenant, start) : insertInSavepoint(p, current, tenant, start);
    chainHeads.set(tenant, head); // only once the append's rows are in
    return result;
  };

  function appendOne(p: PendingAppend): { ok: AppendResult; wrote: boolean } {
    const current = st.headRevision.get(p.stream)?.revision ?? -1;
    if (!revisionMatches(p.expected, current)) {
      const earlier = findEarlierAppend(st, p);
      if (earlier === null) throw new WrongExpectedRevisionError(p.stream, p.expected, current < 0 ? 'no_stream' : current);
      return { ok: earlier, wrote: false };
    }
    try {
      return { ok: insertAll(p, current), wrote: true };
    } catch (err) {
      if (!isEventIdConflict(err)) throw err;
      const earlier = findEarlierAppend(st, p);
      if (earlier === null) throw err; // cannot happen: an id collided, so it exists
      return { ok: earlier, wrote: false };
    }
  }

  /** One transaction over the batch; an error that ended the transaction stops it at once (TransactionLost). */
  const writeTransaction = db.transaction((batch: PendingAppend[]): AppendOutcome[] => {
    chainHeads = new Map(); // another process may have appended since the last transaction
    const outcomes: AppendOutcome[] = [];
    for (const [index, p] of batch.entries()) {
      try {
        outcomes.push(appendOne(p));
      } catch (error) {
        // Disk full or an I/O error may roll the whole transaction back: going on would write in autocommit.
        if (!db.inTransaction) throw new TransactionLost(index, error);
        outcomes.push({ error });
      }
    }
    return outcomes;
  });

  /**
   * Runs one batch. A member whose error rolled the transaction back fails alone; the others (rolled back with
   * it) are written again in a fresh transaction. Throws only when a transaction fails with no member at fault
   * (BEGIN or COMMIT): then nothing of the batch is written.
   */
  return (batch: PendingAppend[]): AppendOutcome[] => {
    const outcomes = new Map<PendingAppend, AppendOutcome>();
    let pending = batch;
    while (pending.length > 0) {
      try {
        writeTransaction.immediate(pending).forEach((o, i) => outcomes.set(pending[i]!, o));
        pending = [];
      } catch (err) {
        if (!(err instanceof TransactionLost)) throw err;
        const culprit = pending[err.index]!;
        outcomes.set(culprit, { error: err.cause });
        pending = pending.filter((p) => p !== culprit);
      }
    }
    return batch.map((p) => outcomes.get(p)!);
  };
}

/** An append's error ended the batch's transaction: everything in it was rolled back. */
class TransactionLost extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super('the transaction was rolled back by an append that failed');
  }
}

/**
 * An append whose ids already exist: the same append retried (acknowledged with the original result), or a
 * different append reusing an id (IdempotencyConflictError). Null when none of the ids exists.
 */
function findEarlierAppend(st: Statements, p: PendingAppend): AppendResult | null {
  const rows = p.events.map((e) => st.byEventId.get(e.id.toLowerCase()));
  const firstFound = rows.findIndex((r) => r !== undefined);
  if (firstFound < 0) return null;
  const conflict = new IdempotencyConflictError(p.stream, p.events[firstFound]!.id);
  if (rows.some((r) => r === undefined)) throw conflict;
  const found = rows as EventRow[];
  const start = found[0]!.revision;
  const same = found.every(
    (r, i) =>
      r.stream === p.stream && r.revision === start + i && sameEventContent({ type: r.type, data: JSON.parse(r.data) }, p.events[i]!),
  );
  if (!same || !retryStartMatches(p.expected, start)) throw conflict;
  const last = found[found.length - 1]!;
  return { nextExpectedRevision: last.revision, position: BigInt(last.position) };
}

function isEventIdConflict(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' && /events\.event_id/.test(e.message ?? '');
}
