// `create-company` and `create-admin`: the platform registers a company with its first administrator, or appoints
// another; an invited person gets a one-time activation token (shown once), then enrolls TOTP at the first sign-in.
import type { Command } from 'commander';
import { withReason, type CliRuntime } from '../cliRuntime.js';
import { OpsError } from '../connection.js';

interface Appointed {
  userId: string;
  accountCreated: boolean;
  activation: { token?: string; expiresAt: string } | null;
}

interface AdminOptions {
  adminEmail?: string;
  adminName?: string;
  adminUserId?: string;
}

function adminOf(opts: AdminOptions): { email: string; name: string } | { userId: string } {
  if (opts.adminUserId && !opts.adminEmail) return { userId: opts.adminUserId };
  if (opts.adminEmail && opts.adminName && !opts.adminUserId) return { email: opts.adminEmail, name: opts.adminName };
  throw new OpsError('name the administrator: --admin-email with --admin-name (a new person), or --admin-user-id (an existing account)');
}

const withAdmin = (command: Command): Command =>
  command
    .option('--admin-email <email>', 'a new person invited as administrator')
    .option('--admin-name <name>', 'their name')
    .option('--admin-user-id <id>', 'or an existing account, by id');

/** What the person does next, the way the platform route's answer says it. */
function activationText(admin: Appointed, email: string | undefined): string[] {
  if (!admin.activation) return [`Administrator: account ${admin.userId} (a member at once)`];
  const lines = [`Administrator: ${email} (user ${admin.userId}${admin.accountCreated ? ', new account' : ''})`];
  if (admin.activation.token) {
    lines.push(`Activation token (shown once, valid until ${admin.activation.expiresAt}): ${admin.activation.token}`);
    lines.push(
      admin.accountCreated
        ? 'Next: POST /auth/activate {token, password}; the first sign-in (POST /auth/login) answers the TOTP enrollment ' +
            '(secret, otpauth URI, QR) and the first valid code (POST /auth/verify-2fa) confirms it.'
        : 'Next: the holder of that account, signed in, accepts with POST /auth/invitations/{companyId}/accept {token}.',
    );
  } else lines.push(`The activation token was e-mailed to ${email} (valid until ${admin.activation.expiresAt}).`);
  return lines;
}

export function register(program: Command, runtime: CliRuntime): void {
  const create = withReason(withAdmin(program.command('create-company')))
    .description('register a company with its first administrator')
    .requiredOption('--legal-name <name>', 'legal name')
    .requiredOption('--trade-name <name>', 'trade name')
    .requiredOption('--country <code>', 'ISO 3166-1 alpha-2, e.g. PE')
    .requiredOption('--tax-id <type:number>', 'e.g. RUC:20131312955')
    .requiredOption('--address <line>', 'street address')
    .requiredOption('--city <city>', 'city')
    .option('--region <region>', 'region')
    .requiredOption('--time-zone <zone>', 'IANA time zone, e.g. America/Lima')
    .requiredOption('--currency <code>', 'ISO 4217, e.g. PEN')
    .option('--modules <list>', 'optional modules switched on, comma-separated (default: all)')
    .action((opts: Record<string, string | undefined>) =>
      runtime.run(create, async ({ conn }) => {
        const [taxType, taxNumber] = (opts.taxId ?? '').split(':');
        if (!taxType || !taxNumber) throw new OpsError('--tax-id must be <type>:<number>, e.g. RUC:20131312955');
        const body = {
          legalName: opts.legalName,
          tradeName: opts.tradeName,
          country: opts.country,
          taxId: { type: taxType, number: taxNumber },
          address: { line1: opts.address, city: opts.city, ...(opts.region ? { region: opts.region } : {}) },
          timeZone: opts.timeZone,
          currency: opts.currency,
          ...(opts.modules ? { modules: opts.modules.split(',').map((m) => m.trim()) } : {}),
          admin: adminOf(opts),
          reason: opts.reason,
        };
        const { body: answer } = await conn.request<{ company: { id: string; name: string }; admin: Appointed }>('POST', '/empresas', body);
        const text = [`Company ${answer.company.name}: ${answer.company.id}`, ...activationText(answer.admin, opts.adminEmail)];
        return { json: { company: answer.company, admin: answer.admin }, text: text.join('\n') };
      }),
    );

  const appoint = withReason(withAdmin(program.command('create-admin <company>')))
    .description('appoint an administrator of a company (its id): a new person by e-mail, or an existing account')
    .action((company: string, opts: AdminOptions & { reason: string }) =>
      runtime.run(appoint, async ({ conn }) => {
        const route = `/empresas/${encodeURIComponent(company)}/administradores`;
        const { body: admin } = await conn.request<Appointed>('POST', route, { admin: adminOf(opts), reason: opts.reason });
        return { json: { companyId: company, admin }, text: activationText(admin, opts.adminEmail).join('\n') };
      }),
    );
}
