// X-Event-Position and minPosition travel as an opaque consistency token: the global log position sealed with
// AES-256-GCM under a key derived from the token-signing key, so no company can read the platform-wide write
// counter from it, forge one, or replay another deployment's.
import { canonicalBase64url } from './canonicalBase64.js';
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';
import type { AppServices } from '../services.js';
import { authRuntime } from '../auth/authRuntime.js';

export interface ConsistencyTokens {
  seal(position: bigint): string;
  /** The position a token of ours holds, or null for anything else (malformed, tampered, another key). */
  open(token: string): bigint | null;
}

const VERSION = 'c1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const POSITION_BYTES = 8;
/** The token's shape, for the schemas that accept it. */
export const CONSISTENCY_TOKEN_PATTERN = '^c1\\.[A-Za-z0-9_-]{40,60}$';

export function createConsistencyTokens(signingKey: Buffer): ConsistencyTokens {
  // A KeyObject made once: a raw Buffer key is imported again on every seal and open (half the seal's cost).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', signingKey, Buffer.alloc(0), 'dialysis consistency token v1', 32)));
  return {
    seal(position) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const plain = Buffer.alloc(POSITION_BYTES);
      plain.writeBigUInt64BE(position);
      const sealed = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${sealed.toString('base64url')}`;
    },
    open(token) {
      if (!token.startsWith(`${VERSION}.`)) return null;
      const sealed = canonicalBase64url(token.slice(VERSION.length + 1));
      if (!sealed || sealed.length !== NONCE_BYTES + POSITION_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
        decipher.setAuthTag(sealed.subarray(NONCE_BYTES + POSITION_BYTES));
        const plain = Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, NONCE_BYTES + POSITION_BYTES)), decipher.final()]);
        return plain.readBigUInt64BE();
      } catch {
        return null; // the tag does not verify: not a token of this deployment
      }
    },
  };
}

// One codec per running service (keyed like the auth runtime, by its event store).
const codecs = new WeakMap<object, Promise<ConsistencyTokens>>();

export function consistencyTokens(services: AppServices): Promise<ConsistencyTokens> {
  let codec = codecs.get(services.events);
  if (!codec) {
    codec = authRuntime(services).then((runtime) => createConsistencyTokens(runtime.jwt.key));
    codecs.set(services.events, codec);
  }
  return codec;
}
