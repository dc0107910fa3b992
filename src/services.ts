// What the composition root (main.ts) hands to route handlers and commands.
import type { ReadServices } from './readServices.js';
import type { ProcessRunner } from './processes/processRunner.js';
import type { Renders } from './render/renders.js';
import type { PlatformFacts } from './commands/platform/platformFacts.js';
import type { FactLoaders } from './commands/factLoaders.js';
import type { Integrity } from './integrity/integrity.js';

export interface AppServices extends ReadServices {
  /** Process managers: consequences of events in other aggregates (tests wait for them). */
  processes: ProcessRunner;
  /** PDF renders off the event loop: a worker pool with a per-company limit and a cache. */
  renders: Renders;
  /** The facts platform writes read from read models (src/facts/platform/): the write side never imports a query. */
  platformFacts: PlatformFacts;
  /** The facts commands take from other streams and read models (src/facts/, wired in server.ts). */
  facts: FactLoaders;
  /** Tamper evidence: signed checkpoints of each tenant's hash chain and its verifications (src/integrity). */
  integrity: Integrity;
}
