// Standard Webhooks signing: `whsec_` + base64 secrets, `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, several
// signatures space-separated while a rotated secret still signs alongside the new one.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes, base64, with the `whsec_` prefix. */
export const newWebhookSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

/** The key bytes of a secret (the base64 after the prefix). */
const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/** One signature: `v1,<base64>`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret still signing, newest first. */
export const signatureHeader = (secrets: readonly string[], id: string, timestampSeconds: number, body: string): string =>
  secrets.map((secret) => signWebhook(secret, id, timestampSeconds, body)).join(' ');
