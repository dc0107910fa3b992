// Store implementations reachable from the test run: the embedded ones always, the server-backed ones
// when their URL is set. Contract suites loop over these lists.
import { MongoClient } from 'mongodb';
import type { ReadStore } from '../../src/stores/readStore.js';
import { createEmbeddedReadStore } from '../../src/stores/embedded/embeddedReadStore.js';
import { openMongoReadStore } from '../../src/stores/mongo/mongoReadStore.js';
import { openSqliteReadStore } from '../../src/stores/sqliteRead/sqliteReadStore.js';

// ---- event stores (helper "events") -------------------------------------------------------------
// Imports are hoisted, so this section keeps its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
// Static (not import()): one module instance of eventStore.ts, so `instanceof` on its errors holds in the suites.
import { openEsdbEventStore } from '../../src/stores/eventstoredb/esdbEventStore.js';

export interface EventStoreImplementation {
  name: 'sqlite' | 'eventstoredb';
  /** Opens a store on this implementation's data (SQLite: one temp file per implementation entry; calling
   * open() again gives a second handle on the same file). Tests must use unique tenant ids: a server is shared. */
  open(): Promise<EventStore>;
  /** Closes every store opened through open() and deletes temporary files. */
  cleanup(): Promise<void>;
  /** Guarantees that only some implementations give (EventStoreDB indexes event ids per stream only). */
  capabilities: {
    /** An event id reused in another stream is an IdempotencyConflictError; a retry under 'any' is idempotent. */
    globalEventIds: boolean;
  };
}

let eventStoreSkipAnnounced = false;

export function eventStoreImplementations(): EventStoreImplementation[] {
  const implementations: EventStoreImplementation[] = [sqliteImplementation()];
  const url = process.env.EVENTSTORE_URL;
  if (url) {
    const opened: EventStore[] = [];
    implementations.push({
      name: 'eventstoredb',
      async open() {
        const store = await openEsdbEventStore({ url });
        opened.push(store);
        return store;
      },
      async cleanup() {
        for (const store of opened.splice(0)) await store.close().catch(() => undefined);
      },
      capabilities: { globalEventIds: false },
    });
  } else if (!eventStoreSkipAnnounced) {
    eventStoreSkipAnnounced = true;
    console.warn('\n!!!!!!!! SKIPPED: EventStoreDB contract suite (EVENTSTORE_URL not set) !!!!!!!!\n');
  }
  return implementations;
}

function sqliteImplementation(): EventStoreImplementation {
  let dir: string | null = null;
  const opened: EventStore[] = [];
  return {
    name: 'sqlite',
    async open() {
      dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'events-contract-'));
      const store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollMs: 100 });
      opened.push(store);
      return store;
    },
    async cleanup() {
      for (const store of opened.splice(0)) await store.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
    capabilities: { globalEventIds: true },
  };
}

// ---- read stores (helper "reads") ---------------------------------------------------------------

export interface OpenedReadStore {
  store: ReadStore;
  /** Opens the same data again (embedded: the same instance, its data lives in this process only). */
  reopen(): Promise<ReadStore>;
  /** Closes every store opened here and deletes the test data. */
  dispose(): Promise<void>;
}

export interface ReadStoreImplementation {
  name: 'embedded' | 'sqlite' | 'mongodb';
  /** A fresh, empty store (MongoDB: a database of its own; SQLite: a file of its own). */
  open(): Promise<OpenedReadStore>;
}

let mongoSkipAnnounced = false;
let mongoDbCounter = 0;

export function readStoreImplementations(): ReadStoreImplementation[] {
  const implementations: ReadStoreImplementation[] = [
    {
      name: 'embedded',
      async open() {
        const store = createEmbeddedReadStore();
        return { store, reopen: async () => store, dispose: () => store.close() };
      },
    },
    { name: 'sqlite', open: openSqliteTestStore },
  ];
  const url = process.env.MONGO_URL;
  if (url) {
    implementations.push({ name: 'mongodb', open: () => openMongoTestStore(url) });
  } else if (!mongoSkipAnnounced) {
    mongoSkipAnnounced = true;
    console.warn('\n!!!!!!!! SKIPPED: MongoDB contract suite (MONGO_URL not set) !!!!!!!!\n');
  }
  return implementations;
}

async function openSqliteTestStore(): Promise<OpenedReadStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reads-contract-'));
  const file = path.join(dir, 'readmodels.sqlite');
  const opened: ReadStore[] = [await openSqliteReadStore({ file })];
  return {
    store: opened[0]!,
    async reopen() {
      const store = await openSqliteReadStore({ file });
      opened.push(store);
      return store;
    },
    async dispose() {
      for (const store of opened) await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openMongoTestStore(url: string): Promise<OpenedReadStore> {
  const dbName = `contract_${process.pid}_${Date.now()}_${mongoDbCounter++}`;
  const opened: ReadStore[] = [await openMongoReadStore({ url, dbName })];
  return {
    store: opened[0]!,
    async reopen() {
      const store = await openMongoReadStore({ url, dbName });
      opened.push(store);
      return store;
    },
    async dispose() {
      for (const store of opened) await store.close();
      const client = new MongoClient(url);
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
