// Composition root: configuration -> stores -> projections -> bootstrap -> HTTP. `close()` undoes it
// in reverse order, letting requests in flight finish.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { EventStoreUnusableError, type EventStore } from './stores/eventStore.js';
import { backgroundIntegrityOf } from './stores/sqlite/integrityCheck.js';
import type { AppServices } from './services.js';
import { createLogger, type Logger } from './logger.js';
import type { GroupModule } from './http/groupModule.js';
import { registeredGroups } from './http/groups.js';
import { openEventStore } from './stores/openEventStore.js';
import type { SqliteEventStoreTestHooks } from './stores/sqlite/storeTestHooks.js';
import { openReadStore } from './stores/openReadStore.js';
import { openProjectionRunner } from './projectionRunnerChoice.js';
import { refillReadModelsAfterDamage } from './projections/readModelRefill.js';
import { releaseLeftoverProjectorLease } from './projections/runner/leftoverLease.js';
import { startProcessManagers } from './processes/processRunner.js';
import { startPeriodicTasks } from './processes/periodicTasks.js';
import { recordReconciliations } from './ops/startupProgress.js';
import { buildApp } from './http/app.js';
import type { ResponseCheck } from './http/routePipeline.js';
import { answerClientError } from './http/clientErrors.js';
import { authenticate } from './http/authenticate.js';
import { authRuntime } from './auth/authRuntime.js';
import { bootstrap, type BootstrapCredentials, type BootstrapResult } from './commands/platform/bootstrapWrites.js';
import { bootstrapBanner } from './bootstrapBanner.js';
import { setPermissionCatalog } from './queries/platform/permissionCatalog.js';
import { platformFactsFrom } from './facts/platform/platformFactsLoader.js';
import { createRenders } from './render/renders.js';
import { factLoaders } from './facts/factLoaders.js';
import { createIntegrity } from './integrity/integrity.js';
import { chainTenants } from './integrity/chainTenants.js';
import { feedHubOf } from './http/routes/sistema/feedHub.js';
import { acquireServiceLock } from './ops/serviceLock.js';
import { acceptOpsToken } from './http/opsAuth.js';
import { startObservability } from './observability/serviceObservability.js';
import { writesFirst } from './http/writesFirst.js';
import { writePrioritySettings } from './writePrioritySettings.js';

export interface StartServerOptions {
  /** 2xx bodies that drift from their schema: 'enforce' (tests) answers 500; 'log' (default) logs and answers. */
  responseCheck?: ResponseCheck;
  /** The service clock (tests pass a controllable one). */
  now?: () => Date;
  logger?: Logger;
  /** Do not print the first-start banner (tests). */
  quiet?: boolean;
  /** Groups to serve instead of the registry's (defaults to registeredGroups()). */
  groups?: GroupModule[];
  /** Receives the first start's credentials instead of the terminal banner (tests). */
  announce?: (credentials: BootstrapCredentials) => void | Promise<void>;
  /** Hold DATA_DIR/service.lock (default true): false only for tests of several instances on one store. */
  serviceLock?: boolean;
  /** Tests only (fault injection: a failing fsync, a capped file); configuration never reaches it. */
  eventStoreTestHooks?: SqliteEventStoreTestHooks;
}

export interface RunningServer {
  url: string;
  port: number;
  services: AppServices;
  /** What the first-start bootstrap did (ids are null when another process bootstrapped concurrently). */
  bootstrap: BootstrapResult;
  close(): Promise<void>;
  /** Writes the access audit entries still queued or coalescing (a test reads them back at once). */
  flushAccessAudit(): Promise<void>;
  /** Resolves, once the service has closed itself, when the event store found its file unusable after the start
   * (background integrity check, failed WAL sync); never resolves otherwise. */
  failed: Promise<EventStoreUnusableError>;
}

const GRACE_MS = 10_000;

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Counts requests whose handlers are still running: a client that hangs up does not stop its handler. */
function trackInFlight(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>): {
  listener: http.RequestListener;
  drained: () => Promise<void>;
} {
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const listener: http.RequestListener = (req, res) => {
    inFlight++;
    void Promise.resolve(handle(req, res)).finally(() => {
      if (--inFlight === 0) for (const wake of waiters.splice(0)) wake();
    });
  };
  return { listener, drained: () => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))) };
}

/**
 * Stops accepting connections and lets handlers in flight finish (bounded), so the stores are never closed
 * under a running request; then drops what is left.
 */
function stopHttp(server: http.Server, drained: () => Promise<void>): Promise<void> {
  // Connections whose answer ends during the stop (a long-poll, a change feed stream) are closed once idle, not kept alive.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const closed = new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  let force: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    force = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, GRACE_MS);
    force.unref();
  });
  return Promise.race([Promise.all([closed, drained()]).then(() => undefined), grace]).finally(() => {
    clearTimeout(force);
    clearInterval(sweep);
  });
}

/** Resolves when the store stops because its file is unusable (failed integrity check or WAL sync); never otherwise. */
function integrityFailure(events: EventStore): Promise<EventStoreUnusableError> {
  return backgroundIntegrityOf(events)?.stopped ?? new Promise(() => undefined);
}

const urlHost = (host: string): string => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

export async function startServer(config: Config, opts: StartServerOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const now = opts.now ?? (() => new Date());
  if (config.role !== 'all') logger.warn(`ROLE=${config.role}: separate api/projector processes are not split yet; serving as 'all'`);

  const cleanup: (() => Promise<void>)[] = [];
  const undo = async () => {
    for (const step of cleanup.reverse()) await step().catch((err: unknown) => logger.error('shutdown step failed', { error: err }));
  };
  try {
    // One service (or offline command line) per data directory; the command line finds it here (src/ops/serviceLock.ts).
    const lock = opts.serviceLock === false ? null : await acquireServiceLock(config.dataDir);
    if (lock) cleanup.push(() => lock.release());
    const events = await openEventStore(config, logger, opts.eventStoreTestHooks);
    cleanup.push(() => events.close());
    const unusable = integrityFailure(events);
    const found: { error: EventStoreUnusableError | null } = { error: null };
    void unusable.then((err) => (found.error = err));
    const reads = await openReadStore(config, logger);
    cleanup.push(() => reads.close());
    if (lock) await releaseLeftoverProjectorLease(reads, logger); // a kill -9 left it: project now, not after its expiry

    const groups = opts.groups ?? registeredGroups();
    setPermissionCatalog(groups);
    const projections = openProjectionRunner(config, { events, reads, logger, now }, opts.groups !== undefined);
    for (const group of groups) for (const projection of group.projections) projections.register(projection);
    await projections.start();
    cleanup.push(() => projections.stop());
    refillReadModelsAfterDamage(reads, projections); // a damaged read-model file is set aside and refilled from the log

    let services: AppServices | null = null;
    const managers = groups.flatMap((group) => group.processes ?? []);
    let servicesAssembled = (): void => undefined;
    const ready = new Promise<void>((resolve) => (servicesAssembled = resolve));
    const processes = startProcessManagers({ events, reads, logger, services: () => services!, ready }, managers);
    cleanup.push(() => processes.stop());
    const renders = createRenders(config, logger);
    cleanup.push(() => renders.close());
    const integrity = await createIntegrity({ config, logger, now, events });
    cleanup.push(() => integrity.close());
    services = {
      config,
      events,
      reads,
      projections,
      processes,
      logger,
      renders,
      now,
      platformFacts: platformFactsFrom(projections),
      facts: factLoaders(() => services!),
      integrity,
    };
    await authRuntime(services); // load or create the keys now: a bad key setting stops the start
    servicesAssembled(); // the process managers react from here on, with the services and their keys
    const expectedUrl = config.port ? `http://${urlHost(config.host)}:${config.port}` : null;
    const printBanner = async (credentials: BootstrapCredentials): Promise<void> => {
      process.stdout.write(await bootstrapBanner(credentials, expectedUrl));
    };
    const booted = await bootstrap(services, { announce: opts.announce ?? (opts.quiet ? undefined : printBanner) });

    const periodic = startPeriodicTasks(
      { logger, services: () => services },
      groups.flatMap((group) => group.periodicTasks ?? []),
    );
    cleanup.push(() => periodic.stop());
    recordReconciliations(services, () => periodic.reconciling()); // /ready waits for their first run
    integrity.startCheckpoints(() => chainTenants(services));
    if (found.error) throw found.error; // the file failed its check while we were starting: stop like at open
    const app = buildApp(services, { groups, authenticate, ...(opts.responseCheck ? { responseCheck: opts.responseCheck } : {}) });
    cleanup.push(() => app.close());
    const observability = await startObservability(services, () => app.accessAudit.pending);
    cleanup.push(() => observability.close());
    const requests = trackInFlight(writesFirst(app.callback(), config.writePriority ?? writePrioritySettings({})));
    const server = http.createServer(requests.listener);
    server.on('clientError', answerClientError);
    server.keepAliveTimeout = 5_000;
    await listen(server, config.port, config.host);
    cleanup.push(() => stopHttp(server, requests.drained));
    cleanup.push(() => feedHubOf(services).close()); // runs first: open change feed streams end, so the HTTP stop never waits on them
    const port = (server.address() as AddressInfo).port;
    const url = `http://${urlHost(config.host)}:${port}`;
    if (lock) acceptOpsToken(services, await lock.announce(url));

    let closing: Promise<void> | null = null;
    const close = () => (closing ??= undo());
    const failed = unusable.then(async (err) => {
      logger.error('the event store is unusable: stopping the service', { error: err.message });
      await close();
      return err;
    });
    return { url, port, services, bootstrap: booted, close, failed, flushAccessAudit: () => app.accessAudit.flush() };
  } catch (err) {
    await undo();
    throw err;
  }
}
