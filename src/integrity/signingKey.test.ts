// The checkpoint signing key: created once under DATA_DIR (0600, the same key for two starts at once), or the configured file.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SIGNING_KEY_FILE, loadOrCreateSigningKey } from './signingKey.js';

describe('checkpoint signing key', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signing-key-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is created once under DATA_DIR with mode 0600; starts at once agree on it', async () => {
    const [a, b] = await Promise.all([loadOrCreateSigningKey(dir, null), loadOrCreateSigningKey(dir, null)]);
    assert.equal(a.keyId, b.keyId);
    assert.equal(fs.statSync(path.join(dir, DEFAULT_SIGNING_KEY_FILE)).mode & 0o777, 0o600);
    assert.equal((await loadOrCreateSigningKey(dir, null)).keyId, a.keyId, 'the next start reads it back');
    assert.match(a.publicKeyPem, /BEGIN PUBLIC KEY/);
  });

  it('a configured key file is used as is; a key that is not Ed25519 is refused', async () => {
    const configured = path.join(dir, 'mine.pem');
    fs.writeFileSync(configured, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const key = await loadOrCreateSigningKey(path.join(dir, 'data'), configured);
    assert.equal(fs.existsSync(path.join(dir, 'data', DEFAULT_SIGNING_KEY_FILE)), false);
    assert.match(key.keyId, /^[0-9a-f]{64}$/);
    const rsa = path.join(dir, 'rsa.pem');
    fs.writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await assert.rejects(loadOrCreateSigningKey(dir, rsa), /Ed25519/);
  });
});
