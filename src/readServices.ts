// What the read side needs of the service: the log, the read models, the configuration and the clock. Queries take
// this, not AppServices, so they never reach the write side's fact ports through the composition root's types.
import type { Config } from './config.js';
import type { EventStore } from './stores/eventStore.js';
import type { ReadStore } from './stores/readStore.js';
import type { ProjectionRunner } from './projections/runner/runnerTypes.js';
import type { Logger } from './logger.js';

export interface ReadServices {
  config: Config;
  events: EventStore;
  reads: ReadStore;
  projections: ProjectionRunner;
  logger: Logger;
  /** Current time; tests may pass a controllable clock. */
  now(): Date;
}
