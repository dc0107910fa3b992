// Where the projections run (PROJECTIONS_THREAD): by default (auto) in a worker thread with connections of its own
// (src/projections/runner/projectorThread.ts) when both stores are the SQLite files; the in-memory and MongoDB read
// stores, and EventStoreDB, keep them on the main thread.
import type { Config } from './config.js';
import { createProjectionRunner, type ProjectionRunnerDeps } from './projections/runner/projectionRunner.js';
import { createThreadedRunner } from './projections/runner/threadedRunner.js';
import type { ProjectionRunner } from './projections/runner/runnerTypes.js';

/** `customGroups`: a test serves its own groups, which the thread (it loads the registry) would not know. */
export function openProjectionRunner(config: Config, deps: ProjectionRunnerDeps, customGroups: boolean): ProjectionRunner {
  const threadPossible = deps.events.kind === 'sqlite' && deps.reads.kind === 'sqlite' && !customGroups;
  if (config.projectionsThread === 'main' || !threadPossible) {
    if (config.projectionsThread === 'worker')
      deps.logger.warn(
        'PROJECTIONS_THREAD=worker needs the SQLite event and read stores (and the registered groups: the thread loads src/projections/projectorRegistry.ts): projecting on the main thread',
      );
    return createProjectionRunner(deps);
  }
  const { events, reads, logger } = deps;
  return createThreadedRunner({
    events,
    reads,
    logger,
    dataDir: config.dataDir,
    readStoreCacheMiB: config.readStoreCacheMiB,
  });
}
