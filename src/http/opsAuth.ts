// The operator token (DATA_DIR/ops.token, written at each start): the command line's way in, for platform operations
// only, acting as `ops:<os user>` so its events and reads are audited like a platform administrator's.
import { timingSafeEqual } from 'node:crypto';
import type { AppServices } from '../services.js';
import type { Principal } from '../auth/principal.js';
import { unauthorized } from '../problems.js';

const tokens = new WeakMap<AppServices, Buffer>();

/** Set by the composition root once the token file is written. */
export function acceptOpsToken(services: AppServices, token: string): void {
  tokens.set(services, Buffer.from(token));
}

const OPS = /^Ops +([A-Za-z0-9_-]{16,128}) *$/;
const OS_USER = /^[A-Za-z0-9._@-]{1,64}$/;

/** `Authorization: Ops <token>` with `X-Ops-User`: a platform principal; null when the header is not of this kind. */
export function opsPrincipal(services: AppServices, header: string, osUser: string): Principal | null {
  const match = OPS.exec(header);
  if (!match) return null;
  const expected = tokens.get(services);
  const given = Buffer.from(match[1]!);
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw unauthorized('The operator token is not valid (it changes at every start of the service)');
  }
  const user = OS_USER.test(osUser) ? osUser : 'unknown';
  const actor = `ops:${user}`;
  return { userId: actor, sessionId: actor, email: '', tenantId: null, permissions: new Set(), platformAdmin: true, company: null };
}
