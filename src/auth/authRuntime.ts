// Per-service-instance auth state: keys loaded once (from config or DATA_DIR) and the in-memory limiters.
import type { AppServices } from '../services.js';
import { LIMITS } from '../limits.js';
import { randomBytes } from 'node:crypto';
import { KeyConfiguredError, loadOrCreateKeyFile, parseConfiguredKey, readKeyFileIfPresent, replaceKeyFile } from './keyFiles.js';
import { createSecretBox, type SecretBox } from './secretBox.js';
import { SlidingWindowLimiter } from './slidingWindowLimiter.js';
import { keyIdOf, type JwtSettings } from './tokens.js';

export interface AuthRuntime {
  jwt: JwtSettings;
  totpSecrets: SecretBox;
  loginPerIp: SlidingWindowLimiter;
  verifyPerIp: SlidingWindowLimiter;
  /** Client-credentials token requests per address, and wrong secrets per client (in memory, per instance). */
  tokenPerIp: SlidingWindowLimiter;
  clientFailures: SlidingWindowLimiter;
  /** Invitations per company and per inviting person (they send the platform's e-mail). */
  invitesPerCompany: SlidingWindowLimiter;
  invitesPerInviter: SlidingWindowLimiter;
}

const JWT_FILE = 'jwt.key';
/** The token key before the last rotation: its tokens verify until they expire. */
const PREVIOUS_JWT_FILE = 'jwt.previous.key';

const tokenSettings = (issuer: string, key: Buffer, previous: Buffer | null): JwtSettings => ({
  key,
  kid: keyIdOf(key),
  issuer,
  ttlSeconds: LIMITS.accessToken.ttlSeconds,
  previous: previous ? [{ kid: keyIdOf(previous), key: previous }] : [],
});

// Keyed by the event store: one runtime per running service, even with several in one test process.
const runtimes = new WeakMap<object, Promise<AuthRuntime>>();

/** JWT_SECRET is used as given (UTF-8 bytes); HS256 needs at least 32 of them. */
function jwtSecretBytes(secret: string): Buffer {
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length < LIMITS.accessToken.minKeyBytes) {
    throw new Error(`JWT_SECRET must be at least ${LIMITS.accessToken.minKeyBytes} bytes of random text (got ${bytes.length})`);
  }
  return bytes;
}

async function createRuntime(services: Pick<AppServices, 'config'>): Promise<AuthRuntime> {
  const { config } = services;
  const jwtKey = config.jwtSecret
    ? jwtSecretBytes(config.jwtSecret)
    : await loadOrCreateKeyFile(config.dataDir, JWT_FILE, LIMITS.accessToken.minKeyBytes);
  const totpKey = config.totpEncryptionKey
    ? parseConfiguredKey(config.totpEncryptionKey, 'TOTP_ENCRYPTION_KEY', 32, 32)
    : await loadOrCreateKeyFile(config.dataDir, 'totp.key', 32);
  const previous = config.jwtSecret ? null : await readKeyFileIfPresent(config.dataDir, PREVIOUS_JWT_FILE);
  return {
    jwt: tokenSettings(config.issuer, jwtKey, previous ? Buffer.from(previous.trim(), 'base64') : null),
    totpSecrets: createSecretBox(totpKey.subarray(0, 32)),
    loginPerIp: new SlidingWindowLimiter(LIMITS.throttling.login.perIpPerMinute, 60_000, 'sign-in-address'),
    verifyPerIp: new SlidingWindowLimiter(LIMITS.throttling.verify2fa.perIpPerMinute, 60_000, 'code-address'),
    tokenPerIp: new SlidingWindowLimiter(LIMITS.apiClients.perIpPerMinute, 60_000, 'token-address'),
    clientFailures: new SlidingWindowLimiter(
      LIMITS.apiClients.clientFailuresPerWindow,
      LIMITS.apiClients.windowSeconds * 1000,
      'client-failures',
    ),
    invitesPerCompany: new SlidingWindowLimiter(LIMITS.invitations.perCompanyPerHour, 3600_000, 'invitations-company'),
    invitesPerInviter: new SlidingWindowLimiter(LIMITS.invitations.perInviterPerHour, 3600_000, 'invitations-inviter'),
  };
}

export function authRuntime(services: Pick<AppServices, 'config' | 'events'>): Promise<AuthRuntime> {
  let runtime = runtimes.get(services.events);
  if (!runtime) {
    runtime = createRuntime(services);
    runtimes.set(services.events, runtime);
    runtime.catch(() => runtimes.delete(services.events));
  }
  return runtime;
}

/**
 * A new token-signing key: new tokens carry its `kid`; the one it replaces is kept in DATA_DIR/jwt.previous.key so
 * tokens already handed out verify until they expire (one previous key: rotate again only after the token lifetime).
 */
export async function rotateTokenKey(services: Pick<AppServices, 'config' | 'events'>): Promise<{ keyId: string; previousKeyId: string }> {
  const { config } = services;
  if (config.jwtSecret) throw new KeyConfiguredError('the token key is set by JWT_SECRET: change it there (every token then ends)');
  const runtime = await authRuntime(services);
  const old = runtime.jwt.key;
  const fresh = randomBytes(LIMITS.accessToken.minKeyBytes);
  await replaceKeyFile(config.dataDir, PREVIOUS_JWT_FILE, `${old.toString('base64')}\n`);
  await replaceKeyFile(config.dataDir, JWT_FILE, `${fresh.toString('base64')}\n`);
  runtime.jwt = tokenSettings(config.issuer, fresh, old);
  return { keyId: runtime.jwt.kid!, previousKeyId: keyIdOf(old) };
}
