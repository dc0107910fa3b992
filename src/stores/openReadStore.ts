// Chooses the read store from the configuration: MongoDB when MONGO_URL is set, else the embedded one
// (SQLite under DATA_DIR by default, or in memory with READ_STORE=memory).
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ReadStore } from './readStore.js';
import { createEmbeddedReadStore } from './embedded/embeddedReadStore.js';
import { openMongoReadStore } from './mongo/mongoReadStore.js';
import { openRecoverableSqliteReadStore } from './sqliteRead/recoverableReadStore.js';
import { DEFAULT_READ_STORE_WATCH_MS } from './sqliteRead/readStoreDamage.js';

export const READ_STORE_FILE = 'readmodels.sqlite';

export async function openReadStore(config: Config, logger: Logger): Promise<ReadStore> {
  if (config.mongoUrl) {
    const store = await openMongoReadStore({ url: config.mongoUrl, dbName: config.mongoDb });
    logger.info('read store: MongoDB', { db: config.mongoDb });
    return store;
  }
  if (config.readStore === 'memory') {
    logger.info('read store: in memory (rebuilt from the event log at start)');
    return createEmbeddedReadStore();
  }
  const file = path.join(config.dataDir, READ_STORE_FILE);
  logger.info('read store: SQLite (kept across starts: projections resume from their checkpoints)', { file });
  return openRecoverableSqliteReadStore({
    file,
    logger,
    watchMs: config.readStoreWatchMs ?? DEFAULT_READ_STORE_WATCH_MS,
    cacheMiB: config.readStoreCacheMiB,
    checkpointPages: config.readStoreCheckpointPages,
  });
}
