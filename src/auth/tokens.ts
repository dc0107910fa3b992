// Access tokens (JWT HS256, algorithm/issuer/audience pinned on verify) and opaque random tokens
// (challenges, refresh tokens) that are stored only as SHA-256 hashes.
import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const JWT_ALGORITHM = 'HS256' as const;
export const JWT_AUDIENCE = 'dialysis-records-api';

export interface AccessClaims {
  sub: string; // user id
  sid: string; // session id
  jti: string;
  iat: number;
  exp: number;
}

export interface JwtSettings {
  key: Buffer;
  issuer: string;
  ttlSeconds: number;
  /** Names the signing key in each token's header (`kid`), so a rotation can tell old tokens from new ones. */
  kid?: string;
  /** Keys retired by a rotation: their tokens still verify until they expire (at most ttlSeconds later). */
  previous?: readonly { kid: string; key: Buffer }[];
}

/** The key id of an HS256 key: the start of its SHA-256, which tells nothing of the key. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

// jsonwebtoken turns a Buffer key into a KeyObject on every call (trying createPublicKey first, which
// dominated request CPU); hand it the KeyObject once.
const secretKeys = new WeakMap<Buffer, KeyObject>();
function secretKeyOf(key: Buffer): KeyObject {
  let keyObject = secretKeys.get(key);
  if (!keyObject) secretKeys.set(key, (keyObject = createSecretKey(key)));
  return keyObject;
}

export function signAccessToken(
  settings: JwtSettings,
  userId: string,
  sessionId: string,
  now: Date,
  options: { ttlSeconds?: number; tokenId?: string } = {},
): { token: string; expiresIn: number } {
  const iat = Math.floor(now.getTime() / 1000);
  const ttlSeconds = Math.min(options.ttlSeconds ?? settings.ttlSeconds, settings.ttlSeconds);
  const payload = { sub: userId, sid: sessionId, jti: options.tokenId ?? randomUUID(), iat, exp: iat + ttlSeconds };
  // iat/exp come from the payload (the service clock), never from the library's own clock.
  const token = jwt.sign(payload, secretKeyOf(settings.key), {
    algorithm: JWT_ALGORITHM,
    issuer: settings.issuer,
    audience: JWT_AUDIENCE,
    ...(settings.kid ? { keyid: settings.kid } : {}),
  });
  return { token, expiresIn: ttlSeconds };
}

export type AccessTokenCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

// A client sends the same token on every request for its 15 minutes: remember the claims of tokens whose
// signature and claims checked out, so a repeat costs one lookup plus the expiry check (the session is
// still looked up on every request, so a logout or revocation takes effect at once). Bounded, oldest out.
const VERIFIED_TOKENS_MAX = 10_000;
const verifiedTokens = new WeakMap<JwtSettings, Map<string, AccessClaims>>();

export function verifyAccessToken(settings: JwtSettings, token: string, now: Date): AccessTokenCheck {
  const clockTimestamp = Math.floor(now.getTime() / 1000);
  let verified = verifiedTokens.get(settings);
  if (!verified) verifiedTokens.set(settings, (verified = new Map<string, AccessClaims>()));
  const known = verified.get(token);
  if (known) {
    // The same rule as jsonwebtoken: expired once the clock reaches exp.
    if (clockTimestamp < known.exp) return { ok: true, claims: known };
    verified.delete(token);
    return { ok: false, reason: 'expired' };
  }
  const check = verifyAccessTokenFully(settings, token, clockTimestamp);
  if (check.ok) {
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, check.claims);
  }
  return check;
}

/** The key a token names (`kid`): the current one or a retired one; a token without `kid` predates rotation. */
function keyFor(settings: JwtSettings, token: string): Buffer | null {
  const header = jwt.decode(token, { complete: true })?.header;
  const kid = header?.kid;
  if (kid === undefined || kid === settings.kid) return kid === undefined && settings.previous?.length ? oldestKey(settings) : settings.key;
  return settings.previous?.find((k) => k.kid === kid)?.key ?? null;
}

/** Tokens without `kid` were signed before the first rotation: by the oldest key kept. */
const oldestKey = (settings: JwtSettings): Buffer => settings.previous![settings.previous!.length - 1]!.key;

function verifyAccessTokenFully(settings: JwtSettings, token: string, clockTimestamp: number): AccessTokenCheck {
  let payload: unknown;
  const key = keyFor(settings, token);
  if (!key) return { ok: false, reason: 'invalid' };
  try {
    payload = jwt.verify(token, secretKeyOf(key), {
      algorithms: [JWT_ALGORITHM],
      issuer: settings.issuer,
      audience: JWT_AUDIENCE,
      clockTimestamp,
    });
  } catch (err) {
    return { ok: false, reason: err instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
  }
  // jsonwebtoken accepts a token without exp (or sid...) unless told otherwise: check every claim we rely on.
  const c = payload as Partial<AccessClaims> | string;
  if (typeof c !== 'object' || c === null) return { ok: false, reason: 'invalid' };
  const strings = [c.sub, c.sid, c.jti].every((v) => typeof v === 'string' && v.length > 0);
  const numbers = [c.iat, c.exp].every((v) => typeof v === 'number' && Number.isFinite(v));
  if (!strings || !numbers) return { ok: false, reason: 'invalid' };
  if (c.exp! - c.iat! > settings.ttlSeconds) return { ok: false, reason: 'invalid' };
  return { ok: true, claims: Object.freeze({ ...c }) as AccessClaims };
}

/** A 256-bit random token, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Refresh tokens name their session so a presented token finds its stream: `<sessionId>.<random>`. */
export function newRefreshToken(sessionId: string): string {
  return `${sessionId}.${randomToken()}`;
}

export function sessionIdOfRefreshToken(token: string): string | null {
  const m = /^([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}$/.exec(token);
  return m ? m[1]! : null;
}
