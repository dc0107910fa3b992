// `keys rotate`: a new token-signing key (tokens already handed out verify until they expire) and a new chain
// checkpoint key (the old public key stays published for older checkpoints); the TOTP at-rest key is not rotated.
import type { Command } from 'commander';
import { withReason, type CliRuntime } from '../cliRuntime.js';

interface Rotated {
  rotated: { key: 'tokens' | 'chain'; keyId: string; previousKeyId: string }[];
  notRotated: string;
}

export function register(program: Command, runtime: CliRuntime): void {
  const keys = program.command('keys').description('signing keys');
  const rotate = withReason(keys.command('rotate'))
    .description('rotate the token-signing key and the chain checkpoint key (or only --tokens / --chain)')
    .option('--tokens', 'only the token-signing key')
    .option('--chain', 'only the chain checkpoint key')
    .action((opts: { tokens?: boolean; chain?: boolean; reason: string }) =>
      runtime.run(rotate, async ({ conn }) => {
        const which =
          opts.tokens || opts.chain ? [...(opts.tokens ? ['tokens'] : []), ...(opts.chain ? ['chain'] : [])] : ['tokens', 'chain'];
        const { body } = await conn.request<Rotated>('POST', '/sistema/claves/rotacion', { keys: which, reason: opts.reason });
        const lines = body.rotated.map(
          (r) => `Rotated the ${r.key === 'tokens' ? 'token-signing' : 'chain checkpoint'} key: ${r.previousKeyId} -> ${r.keyId}`,
        );
        return { json: { ...body }, text: [...lines, `Not rotated: ${body.notRotated}`].join('\n') };
      }),
    );
}
