// `verify [company]`: recomputes a company's hash chain (or the platform's and every company's) in the service's
// verification worker, with progress; exits 1 when a chain is broken, naming the first altered event.
import type { Command } from 'commander';
import type { CliRuntime, OpsContext } from '../cliRuntime.js';
import { OpsError } from '../connection.js';

const POLL_MS = 250;

interface Verification {
  id: string;
  tenant: string;
  state: 'running' | 'intact' | 'broken' | 'failed';
  checked: number;
  total: number;
  brokenLink?: { position: string; eventId: string; stream: string; revision: number };
  headHash?: string | null;
  error?: string;
}

async function allTenants(ctx: OpsContext): Promise<string[]> {
  const tenants = ['platform'];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await ctx.conn.request<{ items: { id: string }[]; nextCursor: string | null }>('GET', `/empresas?limit=200${query}`);
    tenants.push(...page.body.items.map((c) => c.id));
    cursor = page.body.nextCursor;
  } while (cursor);
  return tenants;
}

async function verifyOne(ctx: OpsContext, tenant: string): Promise<Verification> {
  const base = `/sistema/integridad/empresas/${encodeURIComponent(tenant)}/verificacion`;
  let v = (await ctx.conn.request<Verification>('POST', base)).body;
  const progress = ctx.progress(`verify ${tenant}`);
  const started = Date.now();
  try {
    while (v.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      v = (await ctx.conn.request<Verification>('GET', `${base}/${v.id}`)).body;
      const seconds = (Date.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(v.checked / seconds) : 0;
      const eta = rate > 0 ? Math.ceil((v.total - v.checked) / rate) : null;
      progress.update({ done: v.checked, total: v.total, ratePerSecond: rate, etaSeconds: v.state === 'running' ? eta : 0 });
    }
  } finally {
    progress.stop();
  }
  if (v.state === 'failed') throw new OpsError(`the verification of ${tenant} failed: ${v.error ?? 'see the service log'}`);
  return v;
}

const line = (v: Verification) =>
  v.state === 'intact'
    ? `${v.tenant}: intact (${v.checked} events)`
    : `${v.tenant}: BROKEN at position ${v.brokenLink!.position}: event ${v.brokenLink!.eventId} (${v.brokenLink!.stream} revision ${v.brokenLink!.revision}) is not what the chain recorded`;

export function register(program: Command, runtime: CliRuntime): void {
  const command = program
    .command('verify [company]')
    .description("verify the hash chain of a company (its id; 'platform' for the platform's own) or, without one, of all")
    .action((company: string | undefined) =>
      runtime.run(command, async (ctx) => {
        const tenants = company ? [company] : await allTenants(ctx);
        const results: Verification[] = [];
        for (const tenant of tenants) results.push(await verifyOne(ctx, tenant));
        const ok = results.every((v) => v.state === 'intact');
        return { ok, json: { verifications: results }, text: results.map(line).join('\n') };
      }),
    );
}
