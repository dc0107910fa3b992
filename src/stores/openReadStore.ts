// Chooses the read store from the configuration: MongoDB when MONGO_URL is set, else the embedded one.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ReadStore } from './readStore.js';
import { createEmbeddedReadStore } from './embedded/embeddedReadStore.js';
import { openMongoReadStore } from './mongo/mongoReadStore.js';

export async function openReadStore(config: Config, logger: Logger): Promise<ReadStore> {
  if (config.mongoUrl) {
    const store = await openMongoReadStore({ url: config.mongoUrl, dbName: config.mongoDb });
    logger.info('read store: MongoDB', { db: config.mongoDb });
    return store;
  }
  logger.info('read store: embedded (in memory, rebuilt from the event log at start)');
  return createEmbeddedReadStore();
}
