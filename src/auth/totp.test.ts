import assert from 'node:assert/strict';
import { checkTotpCode, isAcceptableTotpSecret, normalizeTotpSecret } from './totp.js';
import { createSecretBox } from './secretBox.js';

// RFC 6238 appendix B, SHA-1 key "12345678901234567890" (Base32 below); 6-digit codes are the last 6 of 8.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP checks', () => {
  it('matches the RFC 6238 test vectors and reports the time step', async () => {
    assert.deepEqual(await checkTotpCode(RFC_SECRET, '287082', at(59), null), { valid: true, timeStep: 1 });
    assert.deepEqual(await checkTotpCode(RFC_SECRET, '081804', at(1111111109), null), { valid: true, timeStep: 37037036 });
  });

  it('accepts the previous step, never an older or a future one', async () => {
    assert.equal((await checkTotpCode(RFC_SECRET, '081804', at(1111111109 + 30), null)).valid, true);
    assert.equal((await checkTotpCode(RFC_SECRET, '081804', at(1111111109 + 60), null)).valid, false);
    assert.equal((await checkTotpCode(RFC_SECRET, '081804', at(1111111109 - 30), null)).valid, false);
  });

  it('refuses steps at or below the last accepted one, naming the replay', async () => {
    assert.deepEqual(await checkTotpCode(RFC_SECRET, '081804', at(1111111109), 37037036), { valid: false, replayOf: 37037036 });
    assert.deepEqual(await checkTotpCode(RFC_SECRET, '081804', at(1111111109), 37037035), { valid: true, timeStep: 37037036 });
    assert.deepEqual(await checkTotpCode(RFC_SECRET, '081804', at(1111111109), 99999999), { valid: false, replayOf: 37037036 });
  });

  it('answers malformed input as an invalid code instead of throwing', async () => {
    for (const code of ['', '12345', '1234567', 'abcdef', ' 287082', '２８７０８２']) {
      assert.deepEqual(await checkTotpCode(RFC_SECRET, code, at(59), null), { valid: false }, code);
    }
    assert.deepEqual(await checkTotpCode('SHORT', '287082', at(59), null), { valid: false });
    assert.deepEqual(await checkTotpCode('not base32!', '287082', at(59), null), { valid: false });
  });

  it('accepts only Base32 secrets of at least 16 bytes for provisioning', () => {
    assert.equal(isAcceptableTotpSecret(RFC_SECRET), true);
    assert.equal(isAcceptableTotpSecret('gezd gnbv gy3t qojq gezd gnbv gy3t qojq'), true);
    assert.equal(isAcceptableTotpSecret('JBSWY3DPEHPK3PXP'), false);
    assert.equal(isAcceptableTotpSecret('JBSWY3DPEHPK3PXP1BSWY3DPEHPK3PXP'), false);
    assert.equal(normalizeTotpSecret('gezd gnbv=='), 'GEZDGNBV');
  });
});

describe('secret box', () => {
  it('round-trips, never shows the plain text, and rejects tampering', () => {
    const box = createSecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal(RFC_SECRET);
    assert.ok(!sealed.includes(RFC_SECRET));
    assert.notEqual(box.seal(RFC_SECRET), sealed, 'a fresh IV each time');
    assert.equal(box.open(sealed), RFC_SECRET);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    assert.throws(() => box.open(parts.join('.')));
    assert.throws(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed));
  });
});
