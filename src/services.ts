// What the composition root (main.ts) hands to route handlers and commands.
import type { Config } from './config.js';
import type { EventStore } from './stores/eventStore.js';
import type { ReadStore } from './stores/readStore.js';
import type { ProjectionRunner } from './projections/runner/runnerTypes.js';
import type { Logger } from './logger.js';
import type { ProcessRunner } from './processes/processRunner.js';
import type { Renders } from './render/renders.js';
import type { PlatformFacts } from './commands/platform/platformFacts.js';
import type { FactLoaders } from './commands/factLoaders.js';

export interface AppServices {
  config: Config;
  events: EventStore;
  reads: ReadStore;
  projections: ProjectionRunner;
  /** Process managers: consequences of events in other aggregates (tests wait for them). */
  processes: ProcessRunner;
  logger: Logger;
  /** PDF renders off the event loop: a worker pool with a per-company limit and a cache. */
  renders: Renders;
  /** The facts platform writes read from read models (src/facts/platform/): the write side never imports a query. */
  platformFacts: PlatformFacts;
  /** The facts commands take from other streams and read models (src/facts/, wired in server.ts). */
  facts: FactLoaders;
  /** Current time; tests may pass a controllable clock. */
  now(): Date;
}
