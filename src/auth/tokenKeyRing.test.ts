import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { JWT_AUDIENCE, keyIdOf, signAccessToken, verifyAccessToken, type JwtSettings } from './tokens.js';

const NOW = new Date('2026-01-01T08:00:00Z');
const settings = (key: Buffer, previous: Buffer[] = []): JwtSettings => ({
  key,
  kid: keyIdOf(key),
  issuer: 'urn:test',
  ttlSeconds: 900,
  previous: previous.map((k) => ({ kid: keyIdOf(k), key: k })),
});

describe('token key ring', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('names the key in the token header, and verifies a token of the previous key after a rotation', () => {
    const before = signAccessToken(settings(oldKey), 'u1', 's1', NOW).token;
    assert.equal(jwt.decode(before, { complete: true })?.header.kid, keyIdOf(oldKey));
    const rotated = settings(newKey, [oldKey]);
    assert.equal(verifyAccessToken(rotated, before, NOW).ok, true);
    const after = signAccessToken(rotated, 'u1', 's1', NOW).token;
    assert.equal(jwt.decode(after, { complete: true })?.header.kid, keyIdOf(newKey));
    assert.equal(verifyAccessToken(rotated, after, NOW).ok, true);
  });

  it('verifies a token from before key ids (no kid) with the oldest key kept, and refuses an unknown kid', () => {
    const iat = Math.floor(NOW.getTime() / 1000);
    const claims = { sub: 'u1', sid: 's1', jti: 'j1', iat, exp: iat + 900 };
    const legacy = jwt.sign(claims, oldKey, { algorithm: 'HS256', issuer: 'urn:test', audience: JWT_AUDIENCE });
    assert.equal(verifyAccessToken(settings(newKey, [oldKey]), legacy, NOW).ok, true);
    assert.equal(verifyAccessToken(settings(oldKey), legacy, NOW).ok, true);
    const stranger = jwt.sign(claims, randomBytes(32), {
      algorithm: 'HS256',
      issuer: 'urn:test',
      audience: JWT_AUDIENCE,
      keyid: 'feedfeedfeedfeed',
    });
    assert.deepEqual(verifyAccessToken(settings(newKey, [oldKey]), stranger, NOW), { ok: false, reason: 'invalid' });
    const forgedKid = jwt.sign(claims, randomBytes(32), {
      algorithm: 'HS256',
      issuer: 'urn:test',
      audience: JWT_AUDIENCE,
      keyid: keyIdOf(oldKey),
    });
    assert.deepEqual(verifyAccessToken(settings(newKey, [oldKey]), forgedKid, NOW), { ok: false, reason: 'invalid' });
  });
});
