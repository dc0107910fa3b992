// The session sheet PDF, rendered off the event loop (issue 20 item 5): served from the cache when the session is at the
// same revision and its sheet shows the same data, else rendered in the worker pool within the company's share.
import type { RateLimitLog } from '../rateLimits.js';
import { createHash } from 'node:crypto';
import type { SessionSheet } from '../queries/dialisis/sessionSheet/sessionSheet.js';
import type { CompanyGate } from './companyGate.js';
import type { RenderCache } from './renderCache.js';
import { RENDER_JOBS } from './renderJobs.js';
import type { WorkerPool } from './workerPool.js';

export interface SheetStats {
  /** Sheets rendered by a worker. */
  rendered: number;
  /** Sheets answered from the cache, or from a render of the same version already under way. */
  reused: number;
}

/**
 * The version a sheet is cached under: the session's revision, and a digest of everything else it shows (names of staff,
 * patient and company live in other records), without its generation time.
 */
function versionOf(revision: number, sheet: SessionSheet): string {
  const digest = createHash('sha256')
    .update(JSON.stringify({ ...sheet, generatedAt: null }))
    .digest('base64url');
  return `${revision}:${digest}`;
}

export class SheetRenderer {
  private readonly underway = new Map<string, { version: string; bytes: Promise<Buffer> }>();
  private readonly counts: SheetStats = { rendered: 0, reused: 0 };

  constructor(
    private readonly pool: WorkerPool,
    private readonly gate: CompanyGate,
    private readonly cache: RenderCache,
  ) {}

  /** The PDF of a session at `revision`; a cached one keeps the generation time of its first render. */
  async render(tenantId: string, sessionId: string, revision: number, sheet: SessionSheet, log?: RateLimitLog): Promise<Buffer> {
    const key = `${tenantId}/${sessionId}`;
    const version = versionOf(revision, sheet);
    const cached = this.cache.get(key, version);
    const same = this.underway.get(key);
    if (cached || same?.version === version) {
      this.counts.reused++;
      return cached ?? same!.bytes;
    }
    const bytes = this.gate.run(
      tenantId,
      () => {
        this.counts.rendered++;
        return this.pool.run(RENDER_JOBS.sessionSheet, sheet);
      },
      log,
    );
    this.underway.set(key, { version, bytes });
    try {
      const pdf = await bytes;
      this.cache.set(key, version, pdf);
      return pdf;
    } finally {
      if (this.underway.get(key)?.bytes === bytes) this.underway.delete(key);
    }
  }

  stats(): SheetStats {
    return { ...this.counts };
  }
}
