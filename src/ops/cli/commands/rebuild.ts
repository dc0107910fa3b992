// `rebuild <projection>|--all`: replays the log into fresh collections (POST /sistema/proyecciones/{name}/reconstruir)
// and follows GET /sistema/proyecciones/{name} with a progress bar until reads switched to the new copy.
import type { Command } from 'commander';
import type { CliRuntime, OpsContext } from '../cliRuntime.js';
import { OpsError } from '../connection.js';
import type { RebuildProgress } from '../../../projections/runner/runnerTypes.js';

const POLL_MS = 250;

type Rebuild = RebuildProgress;

interface Status {
  state: string;
  rebuild?: Rebuild;
}

const statusPath = (name: string) => `/sistema/proyecciones/${encodeURIComponent(name)}`;

async function rebuildOne(ctx: OpsContext, name: string): Promise<Rebuild> {
  const before = await ctx.conn.request<Status>('GET', statusPath(name));
  // A finished earlier rebuild may show the same figures: this one is told apart by when it started.
  const previous = before.body.rebuild?.startedAt ?? null;
  await ctx.conn.request('POST', `${statusPath(name)}/reconstruir`);
  const progress = ctx.progress(`rebuild ${name}`);
  try {
    for (;;) {
      const { body } = await ctx.conn.request<Status>('GET', statusPath(name));
      const { rebuild } = body;
      const fresh = rebuild && rebuild.startedAt !== previous ? rebuild : null;
      if (fresh) progress.update(fresh);
      if (body.state !== 'rebuilding' && body.state !== 'failed') {
        if (fresh?.percent === 100) return fresh;
        throw new OpsError(`the rebuild of ${name} did not finish (state ${body.state}): see the service log`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    progress.stop();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function register(program: Command, runtime: CliRuntime): void {
  const command = program
    .command('rebuild [projection]')
    .description('rebuild a projection (or --all) from the event log, with progress and ETA')
    .option('--all', 'every projection, one after the other')
    .action((projection: string | undefined, opts: { all?: boolean }) =>
      runtime.run(command, async (ctx) => {
        if (!projection === !opts.all) throw new OpsError('name one projection, or --all');
        const names = opts.all
          ? (await ctx.conn.request<{ items: { name: string }[] }>('GET', '/sistema/proyecciones')).body.items.map((s) => s.name)
          : [projection!];
        const rebuilt: Rebuild[] = [];
        for (const name of names) rebuilt.push(await rebuildOne(ctx, name));
        const text = rebuilt.map((r) => `Rebuilt ${r.projection}: ${r.done} events in ${seconds(r.elapsedMs)} s (${r.ratePerSecond}/s)`);
        return { json: { rebuilt }, text: text.join('\n') };
      }),
    );
}
