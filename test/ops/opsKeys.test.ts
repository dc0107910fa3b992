// `ops keys rotate`: tokens handed out before the rotation still work (also after a restart), new tokens name the new
// key, the chain key changes while a checkpoint signed before still verifies with the retired public key, and the
// rotation is an event with the operator and the reason.
import assert from 'node:assert/strict';
import { verify as verifySignature } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { checkpointMessage } from '../../src/integrity/chainCheckpoints.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { runOps } from '../support/opsCli.js';

const kidOf = (token: string): unknown => jwt.decode(token, { complete: true })?.header.kid;

describe('ops keys rotate', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: TestServer;
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-ops-keys-'));
    server = await startTestServer({ dataDir });
  });
  after(async () => {
    await server?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('rotates both keys: old tokens and old checkpoints still verify, new ones use the new keys', async () => {
    const before = await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret);
    const checkpoint = await server.services.integrity.checkpoints.checkpointNow('platform');
    assert.ok(checkpoint);
    const oldKey = (await server.request('GET', '/sistema/integridad/clave-publica')).body;

    const refused = await runOps(dataDir, ['keys', 'rotate']);
    assert.notEqual(refused.code, 0, 'a reason is required');
    const run = await runOps(dataDir, ['--json', 'keys', 'rotate', '--reason', 'yearly rotation']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(
      run.json.rotated.map((r: { key: string }) => r.key),
      ['tokens', 'chain'],
    );
    assert.match(run.json.notRotated, /TOTP/);
    const tokens = run.json.rotated[0];
    assert.equal(tokens.previousKeyId, kidOf(before.accessToken));

    assert.equal((await server.request('GET', '/auth/me', { token: before.accessToken })).status, 200, 'an old token verifies');
    const after = await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret);
    assert.equal(kidOf(after.accessToken), tokens.keyId);
    assert.equal((await server.request('GET', '/auth/me', { token: after.accessToken })).status, 200);

    const key = (await server.request('GET', '/sistema/integridad/clave-publica')).body;
    assert.equal(key.keyId, run.json.rotated[1].keyId);
    assert.notEqual(key.keyId, oldKey.keyId);
    const retired = key.retired.find((k: { keyId: string }) => k.keyId === checkpoint.keyId);
    assert.ok(retired, 'the key of the older checkpoint is still published');
    const signature = Buffer.from(checkpoint.signature, 'base64');
    assert.ok(verifySignature(null, Buffer.from(checkpointMessage(checkpoint)), retired.publicKeyPem, signature));
    const fresh = await server.services.integrity.checkpoints.checkpointNow('platform');
    if (fresh) assert.equal(fresh.keyId, key.keyId);

    const events = await server.services.events.readAll({ tenant: 'platform' });
    const recorded = events.filter((e) => e.type === 'KeyRotated');
    assert.equal(recorded.length, 2);
    assert.ok(recorded.every((e) => e.metadata.reason === 'yearly rotation' && e.metadata.actor.startsWith('ops:')));

    await server.close();
    server = await startTestServer({ dataDir });
    assert.equal((await server.request('GET', '/auth/me', { token: before.accessToken })).status, 200, 'the key ring survives a restart');
    assert.equal((await server.request('GET', '/auth/me', { token: after.accessToken })).status, 200);
  });
});
