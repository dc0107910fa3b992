// X-Event-Position / minPosition: an opaque consistency token, so no company reads the platform-wide write counter.
import assert from 'node:assert/strict';
import { createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { consistencyTokens, createConsistencyTokens } from '../../src/http/consistencyToken.js';
import { expectStatus, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';

describe('consistency tokens', () => {
  describe('the codec', () => {
    const codec = createConsistencyTokens(randomBytes(32));

    it('opens what it sealed, and seals the same position differently each time', () => {
      const a = codec.seal(123_456n);
      const b = codec.seal(123_456n);
      assert.notEqual(a, b);
      assert.equal(codec.open(a), 123_456n);
      assert.equal(codec.open(b), 123_456n);
      assert.doesNotMatch(a, /123456/);
    });

    it('refuses a tampered token, a token of another key, and anything else', () => {
      const token = codec.seal(42n);
      const last = token.at(-1) === 'A' ? 'B' : 'A';
      assert.equal(codec.open(token.slice(0, -1) + last), null);
      assert.equal(createConsistencyTokens(randomBytes(32)).open(token), null);
      for (const junk of ['42', '', 'c1.', 'c1.AAAA', token + 'AA', 'c2' + token.slice(2)]) assert.equal(codec.open(junk), null, junk);
    });

    it('keeps its wire format (HKDF-SHA256 key, AES-256-GCM, nonce|ciphertext|tag): tokens outlive a restart or an upgrade', () => {
      const signingKey = randomBytes(32);
      const key = Buffer.from(hkdfSync('sha256', signingKey, Buffer.alloc(0), 'dialysis consistency token v1', 32));
      const sealed = Buffer.from(createConsistencyTokens(signingKey).seal(987_654_321n).slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(20));
      assert.equal(Buffer.concat([decipher.update(sealed.subarray(12, 20)), decipher.final()]).readBigUInt64BE(), 987_654_321n);
      // And a token sealed before this build (same key) still opens.
      assert.equal(createConsistencyTokens(signingKey).open(createConsistencyTokens(signingKey).seal(7n)), 7n);
    });
  });

  describe('over HTTP', () => {
    let world: PacientesWorld;
    before(async () => {
      world = await startPacientesWorld();
    });
    after(async () => world?.close());

    it('answers writes with a sealed token that reads your write, and never the decimal position', async () => {
      const created = expectStatus(await world.register(world.a), 201);
      const token = created.headers.get('x-event-position')!;
      assert.match(token, /^c1\.[A-Za-z0-9_-]+$/);
      const head = await world.server.services.events.headPosition();
      assert.doesNotMatch(token, new RegExp(`^${head}$`));
      expectStatus(await world.call(world.a, 'GET', `/pacientes/${created.body.id}?minPosition=${token}`), 200);
      expectStatus(await world.call(world.a, 'GET', `/pacientes?minPosition=${token}`), 200);
    });

    it('answers 400 at once to a decimal position, a tampered token or a position beyond the head', async () => {
      const head = await world.server.services.events.headPosition();
      const codec = await consistencyTokens(world.server.services);
      const tampered = codec.seal(head).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      for (const minPosition of [String(head), tampered, codec.seal(head + 1_000n)]) {
        const answer = expectStatus(await world.call(world.a, 'GET', `/pacientes?minPosition=${minPosition}`), 400, 'invalid-min-position');
        assert.deepEqual(
          (answer.body.errors as { pointer: string }[]).map((e) => e.pointer),
          ['/query/minPosition'],
        );
      }
    });
  });
});
