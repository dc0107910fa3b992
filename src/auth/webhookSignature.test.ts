// The signer reproduces the Standard Webhooks published test vector, and rotation sends both signatures.
import assert from 'node:assert/strict';
import { newWebhookSecret, signatureHeader, signWebhook } from './webhookSignature.js';

describe('webhook signatures (Standard Webhooks)', () => {
  it('reproduces the published test vector', () => {
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes secrets of whsec_ and 32 random bytes, and signs with each secret still valid, space-separated', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(a, b);
    const header = signatureHeader([a, b], 'msg_1', 1, '{}');
    assert.deepEqual(header.split(' '), [signWebhook(a, 'msg_1', 1, '{}'), signWebhook(b, 'msg_1', 1, '{}')]);
  });
});
