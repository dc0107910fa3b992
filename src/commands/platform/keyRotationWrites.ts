// Key rotation: the token-signing key (a key ring: old tokens verify until they expire) and the chain checkpoint key
// (old public keys stay published); each rotation is recorded as an event with its actor and reason. The TOTP
// at-rest key is not rotated: every enrolled secret lives encrypted inside events, which are never rewritten.
import type { AppServices } from '../../services.js';
import { rotateTokenKey } from '../../auth/authRuntime.js';
import { handleCommand } from '../handleCommand.js';
import { keyRingDecider } from './keyRing/decider.js';
import type { RotatedKey } from './keyRing/events.js';
import { platformContext, type PlatformCaller } from './platformWrites.js';

export interface KeyRotation {
  key: RotatedKey;
  keyId: string;
  previousKeyId: string;
}

export const TOTP_KEY_NOT_ROTATED =
  'the TOTP at-rest key (totp.key / TOTP_ENCRYPTION_KEY) is not rotated: the secrets it encrypts are inside events, ' +
  'and re-encrypting them would rewrite the log; a person whose secret may be exposed gets reset-2fa instead';

/** One rotation at a time per store: the key files change before the event is decided, so two that interleaved left
 * files ahead of the recorded key (the losers' files replaced, unaudited) and every later rotation refused. */
const inFlight = new WeakMap<object, Promise<unknown>>();

export async function rotateKeys(
  services: Pick<AppServices, 'config' | 'events' | 'integrity' | 'now'>,
  keys: readonly RotatedKey[],
  caller: PlatformCaller,
): Promise<{ rotated: KeyRotation[]; position: bigint | null }> {
  const before = inFlight.get(services.events) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(() => rotateInTurn(services, keys, caller));
  inFlight.set(services.events, mine);
  return mine;
}

async function rotateInTurn(
  services: Pick<AppServices, 'config' | 'events' | 'integrity' | 'now'>,
  keys: readonly RotatedKey[],
  caller: PlatformCaller,
): Promise<{ rotated: KeyRotation[]; position: bigint | null }> {
  const rotated: KeyRotation[] = [];
  let position: bigint | null = null;
  for (const key of keys) {
    const ids = key === 'tokens' ? await rotateTokenKey(services) : await services.integrity.rotateKey();
    const result = await handleCommand(
      services.events,
      keyRingDecider,
      { type: 'RecordKeyRotation', aggregateId: key, data: { key, ...ids } },
      platformContext(services, caller),
    );
    position = result.position ?? position;
    rotated.push({ key, ...ids });
  }
  return { rotated, position };
}
