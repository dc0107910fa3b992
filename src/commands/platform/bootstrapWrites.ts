// First start: on an empty store, create the platform administrator and the first company (admin role).
// Exactly one process wins the claim (no_stream append); every later step is idempotent, so a start that
// was interrupted finishes on the next one.
import { randomBytes, randomUUID } from 'node:crypto';
import { handleCommand, loadAggregate } from '../handleCommand.js';
import { DomainError } from '../decider.js';
import { PLATFORM_TENANT, streamName } from '../../stores/eventStore.js';
import { BOOTSTRAP_ID, bootstrapDecider } from './bootstrap/decider.js';
import { userDecider } from './user/decider.js';
import { ADMIN_ROLE } from './company/events.js';
import { normalizeEmail } from './emailGuard/decider.js';
import {
  grantMembership,
  newCompanyId,
  platformContext,
  registerCompany,
  registerUser,
  SYSTEM_CALLER,
  type PlatformServices,
  type ReadYourWrites,
} from './platformWrites.js';
import { isAcceptableTotpSecret, newTotpSecret, normalizeTotpSecret, otpauthUri } from '../../auth/totp.js';
import { checkNewPassword } from '../../auth/passwordPolicy.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@dialysis.example';
export const DEFAULT_COMPANY_NAME = 'First Clinic';

export interface BootstrapCredentials {
  email: string;
  password: string;
  totpSecret: string;
  otpauthUri: string;
  companyName: string;
  /** Which values were generated (and so must be shown once): 'email' | 'password' | 'totpSecret' | 'companyName'. */
  generated: string[];
}

export interface BootstrapResult {
  /** True when this call created the administrator and company. */
  created: boolean;
  adminUserId: string | null;
  companyId: string | null;
}

/** Values from BOOTSTRAP_* (validated), the missing ones generated. Invalid values stop the start. */
export function bootstrapCredentials(services: Pick<PlatformServices, 'config'>): BootstrapCredentials {
  const given = services.config.bootstrap;
  const generated: string[] = [];
  const pick = (name: string, value: string | null, make: () => string): string => {
    if (value) return value;
    generated.push(name);
    return make();
  };
  const email = normalizeEmail(pick('email', given.adminEmail, () => DEFAULT_ADMIN_EMAIL));
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`BOOTSTRAP_ADMIN_EMAIL is not an e-mail address: ${email}`);
  const password = pick('password', given.adminPassword, () => randomBytes(18).toString('base64url'));
  const policy = checkNewPassword(password, { email });
  if (!policy.ok) throw new Error(`BOOTSTRAP_ADMIN_PASSWORD is refused by the password policy: ${policy.detail}`);
  const secret = pick('totpSecret', given.adminTotpSecret, newTotpSecret);
  if (!isAcceptableTotpSecret(secret))
    throw new Error('BOOTSTRAP_ADMIN_TOTP_SECRET must be Base32 (A-Z, 2-7) encoding at least 16 bytes (26+ characters)');
  const totpSecret = normalizeTotpSecret(secret);
  const companyName = pick('companyName', given.companyName?.trim() || null, () => DEFAULT_COMPANY_NAME);
  return { email, password, totpSecret, otpauthUri: otpauthUri(totpSecret, email), companyName, generated };
}

const bootstrapStream = streamName(PLATFORM_TENANT, bootstrapDecider.category, BOOTSTRAP_ID);

/** Every fact is folded from a stream (strong): the bootstrap claim, the administrator; only the last wait reads models. */
export async function bootstrap(
  services: PlatformServices<ReadYourWrites>,
  options: { announce?: (credentials: BootstrapCredentials) => void | Promise<void> } = {},
): Promise<BootstrapResult> {
  const current = await loadAggregate(services.events, bootstrapDecider, bootstrapStream);
  if (current.state.completed) return { created: false, ...current.state.claim! };
  const credentials = bootstrapCredentials(services);

  let claim = current.state.claim;
  if (!claim) {
    const wanted = {
      adminUserId: randomUUID(),
      companyId: newCompanyId(),
      adminEmail: credentials.email,
      generatedCredentials: credentials.generated.length > 0,
    };
    try {
      await handleCommand(
        services.events,
        bootstrapDecider,
        { type: 'ClaimBootstrap', aggregateId: BOOTSTRAP_ID, data: wanted },
        platformContext(services, SYSTEM_CALLER),
        { expectNew: true },
      );
      claim = wanted;
    } catch (err) {
      // Another process claimed it first: that one creates the administrator.
      if (err instanceof DomainError) return { created: false, adminUserId: null, companyId: null };
      throw err;
    }
  }

  const { adminUserId, companyId } = claim;
  const caller = { ...SYSTEM_CALLER, idempotencyKey: `bootstrap:${companyId}` };
  let position: bigint | null = null;
  const company = await registerCompany(services, { name: credentials.companyName, companyId }, caller);
  position = company.position ?? position;
  const member = await grantMembership(services, { companyId, userId: adminUserId, roles: [ADMIN_ROLE] }, caller);
  position = member.position ?? position;
  // The administrator is registered last, without an idempotency key: if another process (a concurrent
  // start, or a resumed one) registers it first, this one must not announce credentials that do not work.
  let created = false;
  const admin = await loadAggregate(services.events, userDecider, streamName(PLATFORM_TENANT, userDecider.category, adminUserId));
  if (admin.revision < 0) {
    try {
      const user = await registerUser(
        services,
        {
          userId: adminUserId,
          email: credentials.email,
          name: 'Platform administrator',
          password: credentials.password,
          platformAdmin: true,
          totpSecret: credentials.totpSecret,
        },
        SYSTEM_CALLER,
      );
      position = user.position ?? position;
      created = true;
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  }
  if (created) await options.announce?.(credentials);
  else services.logger.warn('bootstrap: the administrator was registered by another start', { adminUserId });
  const done = await handleCommand(
    services.events,
    bootstrapDecider,
    { type: 'CompleteBootstrap', aggregateId: BOOTSTRAP_ID, data: {} },
    platformContext(services, SYSTEM_CALLER),
  );
  position = done.position ?? position;
  // Sign-in reads users, companies and memberships right after the first start.
  if (position !== null) await services.platformFacts.caughtUp(position, ['users', 'companies']);
  if (created) services.logger.info('platform bootstrapped', { adminUserId, companyId, adminEmail: credentials.email });
  return { created, adminUserId, companyId };
}
