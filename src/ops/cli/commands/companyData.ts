// `export <company> <dir>`: the running service (or the one started here) exports the company in the background
// (platform route, audited CompanyExported); its parts are copied from DATA_DIR/exports into <dir>. `import <file>`:
// only with the service stopped (the lock held), into the event store alone, audited CompanyImported with the reason.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { withReason, type CliRuntime } from '../cliRuntime.js';
import { OpsError } from '../connection.js';
import type { CompanyExportJob } from '../../companyExports.js';
import { EVENTS_PART, RECORDS_PART } from '../../exportFormat.js';
import { importCompany, type ImportResult } from '../../importCompany.js';
import { appendOperatorEvent, COMPANY_IMPORTED } from '../../operatorEvents.js';
import { openEventStore } from '../../../stores/openEventStore.js';
import { createLogger } from '../../../logger.js';

const POLL_MS = 250;

export function register(program: Command, runtime: CliRuntime): void {
  const exporter = program
    .command('export <company> <dir>')
    .description("export a company's events and records (gzip NDJSON) into <dir>")
    .option('--after <position>', "only the events after a previous export's `through`")
    .option('--reason <text>', 'why (recorded with the export)')
    .action((company: string, dir: string, opts: { after?: string; reason?: string }) =>
      runtime.run(exporter, async (ctx) => {
        const base = `/sistema/empresas/${encodeURIComponent(company)}/exportaciones`;
        const body = { ...(opts.after !== undefined ? { after: opts.after } : {}), ...(opts.reason ? { reason: opts.reason } : {}) };
        let job = (await ctx.conn.request<Omit<CompanyExportJob, 'tenant'>>('POST', base, body)).body;
        const progress = ctx.progress(`export ${company}`);
        const started = Date.now();
        try {
          for (;;) {
            const p = job.progress;
            const seconds = (Date.now() - started) / 1000;
            const rate = seconds > 0 ? Math.round(p.eventsDone / seconds) : 0;
            const ready = job.state === 'ready';
            const eta = rate > 0 ? Math.ceil((p.eventsTotal - p.eventsDone) / rate) : null;
            progress.update({
              done: p.eventsDone,
              total: p.eventsTotal,
              percent: ready ? 100 : p.percent,
              ratePerSecond: rate,
              etaSeconds: ready ? 0 : eta,
            });
            if (job.state !== 'running') break;
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
            job = (await ctx.conn.request<Omit<CompanyExportJob, 'tenant'>>('GET', `${base}/${job.id}`)).body;
          }
        } finally {
          progress.stop();
        }
        if (job.state !== 'ready') throw new OpsError(`the export of ${company} failed: ${job.error ?? 'see the service log'}`);
        const target = path.resolve(dir);
        await fs.mkdir(target, { recursive: true, mode: 0o700 });
        const from = path.join(ctx.dataDir, 'exports', company, job.id);
        const files: string[] = [];
        for (const part of [EVENTS_PART, RECORDS_PART]) {
          const file = path.join(target, part);
          await fs.copyFile(path.join(from, part), file);
          await fs.chmod(file, 0o600);
          files.push(file);
        }
        return {
          json: { export: { ...job, tenant: company, files } },
          text: `Exported ${company} (${job.progress.eventsTotal} events after position ${job.after}, through ${job.through}; export ${job.id}):\n${files.join('\n')}`,
        };
      }),
    );

  const importer = withReason(
    program
      .command('import <file>')
      .description(`import a company export (its ${EVENTS_PART}) into the data directory (service stopped)`)
      .option('--as <companyId>', 'as a new company with this id (the export is then a copy)'),
  ).action((file: string, opts: { as?: string; reason: string }) =>
    runtime.runOffline(importer, async (ctx) => {
      const source = path.resolve(file);
      await fs.access(source).catch(() => {
        throw new OpsError(`no export file at ${source}`);
      });
      const events = await openEventStore(ctx.config, createLogger('error'));
      const progress = ctx.progress('import');
      let result: ImportResult;
      try {
        result = await importCompany({ events }, source, {
          ...(opts.as ? { asTenant: opts.as } : {}),
          onProgress: (p) =>
            progress.update({
              done: p.eventsDone,
              total: p.eventsTotal,
              percent: p.percent,
              ...(p.phase === 'done' ? { etaSeconds: 0 } : {}),
            }),
        });
        const { verified: _verified, position, ...summary } = result;
        await appendOperatorEvent(
          events,
          COMPANY_IMPORTED,
          { ...summary, position: String(position), file: path.basename(source) },
          opts.reason,
        );
      } finally {
        progress.stop();
        await events.close();
      }
      const { verified: _verified, position, ...summary } = result;
      const chain = result.sameChain
        ? `the same chain as the export (head ${result.chainHead})`
        : `the export verified; ${result.tenant} has a chain of its own here (head ${result.chainHead})`;
      return {
        json: { import: { ...summary, position: String(position) } },
        text: `Imported company ${result.tenant} from ${source}: ${result.events} events; chain: ${chain}. The service builds its records at its next start.`,
      };
    }),
  );
}
