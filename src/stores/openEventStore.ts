// Picks the event store from the configuration: EventStoreDB when EVENTSTORE_URL is set, else the SQLite file.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { EventStore } from './eventStore.js';
// Static on purpose: under mocha's require(esm) loading, a dynamic import() gives this adapter its own copy
// of eventStore.ts, and `instanceof WrongExpectedRevisionError` in handleCommand.ts then fails.
import { openSqliteEventStore } from './sqlite/sqliteEventStore.js';
import type { SqliteEventStoreTestHooks } from './sqlite/storeTestHooks.js';

/** The embedded event log's file inside DATA_DIR. */
export function sqliteEventFile(dataDir: string): string {
  return path.join(dataDir, 'events.sqlite');
}

export async function openEventStore(config: Config, logger: Logger, testHooks: SqliteEventStoreTestHooks = {}): Promise<EventStore> {
  if (config.eventStoreUrl) {
    // Imported lazily so the embedded mode never loads the gRPC client.
    const { openEsdbEventStore } = await import('./eventstoredb/esdbEventStore.js');
    const store = await openEsdbEventStore({ url: config.eventStoreUrl });
    logger.info('event store opened', { kind: 'eventstoredb' });
    return store;
  }
  const flushes = config.walFlushesInFlight ? { walFlushesInFlight: config.walFlushesInFlight } : {};
  return openSqliteEventStore({ file: sqliteEventFile(config.dataDir), logger, ...flushes, ...testHooks });
}
