// Background company exports of a running service: one at a time per company, progress while running, the finished
// parts kept under DATA_DIR/exports/<company>/<id>/ (0700 folders, 0600 files) with a manifest until they expire.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ExportCaller } from '../commands/sistema/companyExportWrites.js';
import { exportCompany, type ExportProgress, type ExportServices, type RecordCollection } from './exportCompany.js';
import { EVENTS_PART, RECORDS_PART } from './exportFormat.js';

export const EXPORT_KEPT_DAYS = 7;
const DAY_MS = 86_400_000;
const MANIFEST = 'manifest.json';

export interface CompanyExportJob {
  id: string;
  tenant: string;
  state: 'running' | 'ready' | 'failed';
  requestedBy: string;
  startedAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
  after: string;
  through: string | null;
  progress: ExportProgress;
  error?: string;
}

export interface CompanyExportServices extends ExportServices {
  config: { dataDir: string };
  logger: { error(message: string, fields?: Record<string, unknown>): void };
}

/** The company already has an export running. */
export class ExportRunningError extends Error {
  constructor(readonly running: CompanyExportJob) {
    super(`export ${running.id} of this company is still running`);
    this.name = 'ExportRunningError';
  }
}

export interface CompanyExports {
  /** Starts an export in the background; checks `after` first (ExportPositionError) and answers once it runs. */
  start(request: {
    tenant: string;
    after?: bigint;
    caller: ExportCaller;
    collections: readonly RecordCollection[];
  }): Promise<CompanyExportJob>;
  /** The company's export (null for none, another company's, or an expired one). */
  get(tenant: string, id: string): Promise<CompanyExportJob | null>;
  /** The file of a ready export's part. */
  file(job: CompanyExportJob, part: 'events' | 'records'): string;
  /** Resolves when the exports running now have finished (tests, shutdown). */
  settled(): Promise<void>;
}

export function createCompanyExports(services: CompanyExportServices): CompanyExports {
  const root = path.join(services.config.dataDir, 'exports');
  const jobs = new Map<string, CompanyExportJob>();
  const running = new Map<string, { job: CompanyExportJob; done: Promise<void> }>();
  const folder = (tenant: string, id: string) => path.join(root, tenant, id);

  async function saveManifest(job: CompanyExportJob): Promise<void> {
    const file = path.join(folder(job.tenant, job.id), MANIFEST);
    await fs.writeFile(file, JSON.stringify(job), { mode: 0o600 });
  }

  /** Removes the company's expired exports (at every start: nothing runs on a timer). */
  async function sweep(tenant: string, current: string): Promise<void> {
    const ids = await fs.readdir(path.join(root, tenant)).catch(() => [] as string[]);
    for (const id of ids) {
      if (id !== current && (await get(tenant, id)) === null) await fs.rm(folder(tenant, id), { recursive: true, force: true });
    }
  }

  async function get(tenant: string, id: string): Promise<CompanyExportJob | null> {
    let job = jobs.get(id) ?? null;
    if (!job) {
      const text = await fs.readFile(path.join(folder(tenant, id), MANIFEST), 'utf8').catch(() => null);
      job = text === null ? null : (JSON.parse(text) as CompanyExportJob);
    }
    if (!job || job.tenant !== tenant) return null;
    if (job.expiresAt !== null && Date.parse(job.expiresAt) <= services.now().getTime()) return null;
    return job;
  }

  return {
    async start({ tenant, after, caller, collections }) {
      const current = running.get(tenant);
      if (current) throw new ExportRunningError(current.job);
      const id = randomUUID();
      const job: CompanyExportJob = {
        id,
        tenant,
        state: 'running',
        requestedBy: caller.actor,
        startedAt: services.now().toISOString(),
        finishedAt: null,
        expiresAt: null,
        after: String(after ?? 0n),
        through: null,
        progress: { phase: 'events', eventsDone: 0, eventsTotal: 0, recordsDone: 0, percent: 0, bytes: 0 },
      };
      let started!: (value: unknown) => void;
      const begun = new Promise((resolve) => (started = resolve));
      const work = (async () => {
        await fs.mkdir(folder(tenant, id), { recursive: true, mode: 0o700 });
        const result = await exportCompany(services, {
          tenantId: tenant,
          exportId: id,
          directory: folder(tenant, id),
          ...(after !== undefined ? { after } : {}),
          collections,
          caller,
          onProgress: (progress) => {
            job.progress = progress;
            started(null);
          },
        });
        const finishedAt = services.now();
        Object.assign(job, {
          state: 'ready',
          through: result.through,
          finishedAt: finishedAt.toISOString(),
          expiresAt: new Date(finishedAt.getTime() + EXPORT_KEPT_DAYS * DAY_MS).toISOString(),
        });
        await saveManifest(job);
      })();
      running.set(tenant, {
        job,
        done: work.then(
          () => undefined,
          () => undefined,
        ),
      });
      jobs.set(id, job);
      // The first progress report comes once `after` was checked and the export recorded: failures before it are the caller's.
      try {
        await Promise.race([begun, work]);
      } catch (err) {
        running.delete(tenant);
        jobs.delete(id);
        await fs.rm(folder(tenant, id), { recursive: true, force: true });
        throw err;
      }
      void work
        .catch(async (err: unknown) => {
          const at = services.now();
          const expiresAt = new Date(at.getTime() + EXPORT_KEPT_DAYS * DAY_MS).toISOString();
          Object.assign(job, { state: 'failed', error: (err as Error).message, finishedAt: at.toISOString(), expiresAt });
          services.logger.error('company export failed', { tenant, exportId: id, error: String(err) });
          await saveManifest(job).catch(() => undefined);
        })
        .finally(() => running.delete(tenant));
      void sweep(tenant, id).catch(() => undefined);
      return job;
    },
    get,
    file: (job, part) => path.join(folder(job.tenant, job.id), part === 'events' ? EVENTS_PART : RECORDS_PART),
    async settled() {
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}
