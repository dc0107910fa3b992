// `projections`: every projection's state, checkpoint and lag (GET /sistema/proyecciones).
import type { Command } from 'commander';
import type { CliRuntime } from '../cliRuntime.js';

interface Status {
  name: string;
  state: string;
  checkpoint: string;
  head: string;
  lag: number;
  parked: unknown[];
  rebuild?: { percent: number };
}

export function register(program: Command, runtime: CliRuntime): void {
  const command = program
    .command('projections')
    .description('status of every projection (state, checkpoint, lag)')
    .action(() =>
      runtime.run(command, async ({ conn }) => {
        const { body } = await conn.request<{ items: Status[] }>('GET', '/sistema/proyecciones');
        const { items } = body;
        const width = Math.max(...items.map((s) => s.name.length));
        const lines = items.map(
          (s) =>
            `${s.name.padEnd(width)}  ${s.state.padEnd(11)}  checkpoint ${s.checkpoint}  lag ${s.lag}` +
            (s.parked.length ? `  parked ${s.parked.length}` : '') +
            (s.state === 'rebuilding' && s.rebuild ? `  rebuilding ${s.rebuild.percent}%` : ''),
        );
        return { json: { projections: items }, text: lines.join('\n') };
      }),
    );
}
