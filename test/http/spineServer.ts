// Starts the spine for tests: a real Koa server on a free port, the SQLite event store in a temp dir,
// the embedded read store and the real projection runner, serving the test group and Sistema.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, type SpineApp } from '../../src/http/app.js';
import { sistemaGroup } from '../../src/http/routes/sistema/index.js';
import type { GroupModule } from '../../src/http/groupModule.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import type { ApiJson } from '../support/harness.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { createEmbeddedReadStore } from '../../src/stores/embedded/embeddedReadStore.js';
import { startProcessManagers } from '../../src/processes/processRunner.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import { createRenders } from '../../src/render/renders.js';
import { platformFactsFrom } from '../../src/facts/platform/platformFactsLoader.js';
import { createIntegrity } from '../../src/integrity/integrity.js';
import { factLoaders } from '../../src/facts/factLoaders.js';
import type { AppServices } from '../../src/services.js';
import { newGate, testAuthenticate, testGroup } from './spineTestGroup.js';

export type Json = Record<string, ApiJson>;
export type LogEntry = { level: string; msg: string; fields?: Record<string, unknown> };

export interface SpineServer {
  base: string;
  app: SpineApp;
  events: EventStore;
  groups: GroupModule[];
  /** Everything the service logged (the logger writes here instead of stdout). */
  logged: LogEntry[];
  gate: { current: ReturnType<typeof newGate> | null };
  call(p: string, init?: RequestInit & { json?: unknown; token?: string }): Promise<Response>;
  close(): Promise<void>;
}

export async function startSpineServer(options: { responseCheck?: 'enforce' | 'log' } = {}): Promise<SpineServer> {
  const logged: LogEntry[] = [];
  const logger: Logger = {
    debug: (msg, fields) => logged.push({ level: 'debug', msg, fields }),
    info: (msg, fields) => logged.push({ level: 'info', msg, fields }),
    warn: (msg, fields) => logged.push({ level: 'warn', msg, fields }),
    error: (msg, fields) => logged.push({ level: 'error', msg, fields }),
  };
  const dir = await mkdtemp(path.join(tmpdir(), 'spine-'));
  const events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const reads = createEmbeddedReadStore();
  const projections = createProjectionRunner({ events, reads, logger });
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const gate: SpineServer['gate'] = { current: null };
  const groups: GroupModule[] = [testGroup(gate)];
  groups.push(sistemaGroup(() => groups));
  for (const g of groups) for (const p of g.projections) projections.register(p);
  await projections.start();
  const processes = startProcessManagers({ events, reads, logger, services: () => null }, []);
  const renders = createRenders(config, logger);
  const integrity = await createIntegrity({ config, logger, now: () => new Date(), events });
  const services: AppServices = {
    config,
    events,
    reads,
    projections,
    processes,
    logger,
    renders,
    now: () => new Date(),
    platformFacts: platformFactsFrom(projections),
    facts: factLoaders(() => services),
    integrity,
  };
  const app = buildApp(services, { groups, authenticate: testAuthenticate, responseCheck: options.responseCheck ?? 'enforce' });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    app,
    events,
    groups,
    logged,
    gate,
    call(p, init = {}) {
      const headers = new Headers(init.headers);
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      if (init.token) headers.set('authorization', `Bearer ${init.token}`);
      return fetch(base + p, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await processes.stop();
      await projections.stop();
      await events.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts a problem+json answer of this status and type, correlated with X-Request-Id; returns its body. */
export async function problemOf(res: Response, status: number, type: string): Promise<Json> {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = (await res.json()) as Json;
  assert.equal(body.type, type);
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.equal(body.correlationId, res.headers.get('x-request-id'));
  return body;
}
