// `reset-2fa <email>` and `deactivate <email>`: the platform's account operations, by the address an operator knows
// (resolved with GET /usuarios/por-email/{email}), each with its reason recorded on the event.
import type { Command } from 'commander';
import { withReason, type CliRuntime, type OpsContext } from '../cliRuntime.js';

interface Account {
  id: string;
  email: string;
  name: string;
  active: boolean;
  totpStatus: string;
}

const accountOf = async (ctx: OpsContext, email: string): Promise<Account> =>
  (await ctx.conn.request<Account>('GET', `/usuarios/por-email/${encodeURIComponent(email)}`)).body;

export function register(program: Command, runtime: CliRuntime): void {
  const reset = withReason(program.command('reset-2fa <email>'))
    .description("reset an account's second factor (lost phone): its sessions end; it enrolls a new authenticator at the next sign-in")
    .action((email: string, opts: { reason: string }) =>
      runtime.run(reset, async (ctx) => {
        const account = await accountOf(ctx, email);
        const route = `/usuarios/${account.id}/segundo-factor/reinicio`;
        const { body } = await ctx.conn.request<Account>('POST', route, { reason: opts.reason });
        const text = `Second factor of ${body.email} reset (user ${body.id}): the next sign-in answers a new TOTP enrollment`;
        return { json: { account: body }, text };
      }),
    );

  const deactivate = withReason(program.command('deactivate <email>'))
    .description('deactivate an account everywhere: it can no longer sign in, and every session of it ends now')
    .action((email: string, opts: { reason: string }) =>
      runtime.run(deactivate, async (ctx) => {
        const account = await accountOf(ctx, email);
        const { body } = await ctx.conn.request<{ id: string; active: boolean }>('POST', `/usuarios/${account.id}/desactivacion`, {
          reason: opts.reason,
        });
        return { json: { account: { ...account, active: body.active } }, text: `Deactivated ${account.email} (user ${account.id})` };
      }),
    );
}
