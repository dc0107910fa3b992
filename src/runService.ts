// The service as a process (main.ts imports it): configuration from the environment, start, stop cleanly on signals.
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { EventStoreUnusableError } from './stores/eventStore.js';

export async function runService(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`Configuration error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  let server;
  try {
    server = await startServer(config, { logger });
  } catch (err) {
    if (err instanceof EventStoreUnusableError) {
      process.stderr.write(`The event store cannot be used: ${err.message}\nData directory: ${config.dataDir}\n`);
    } else {
      logger.error('start failed', { error: err });
      process.stderr.write(`Start failed: ${(err as Error).message}\n`);
    }
    process.exit(1);
  }
  logger.info('listening', { url: server.url, eventStore: server.services.events.kind, readStore: server.services.reads.kind });
  // The store found its file unusable after the start (integrity check, failed WAL sync): the server has closed itself.
  void server.failed.then((err) => {
    process.stderr.write(`The event store cannot be used: ${err.message}\nData directory: ${config.dataDir}\n`);
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal });
    server
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error('shutdown failed', { error: err });
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
