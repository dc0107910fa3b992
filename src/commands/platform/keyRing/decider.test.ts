import { command, given } from '../deciderSpec.js';
import { keyRingDecider, type KeyRingCommand } from './decider.js';
import type { KeyRingEvent } from './events.js';

const rotate = (keyId: string, previousKeyId: string) =>
  command<KeyRingCommand>('RecordKeyRotation', { key: 'tokens', keyId, previousKeyId }, { aggregateId: 'tokens' });
const rotated = (keyId: string, previousKeyId: string): KeyRingEvent => ({
  type: 'KeyRotated',
  data: { key: 'tokens', keyId, previousKeyId },
});

describe('Key ring: each rotation replaces the key in use', () => {
  it('records the first rotation, and the next one from the key the last one put in use', () => {
    given(keyRingDecider).when(rotate('k2', 'k1')).then(rotated('k2', 'k1'));
    given(keyRingDecider, rotated('k2', 'k1')).when(rotate('k3', 'k2')).then(rotated('k3', 'k2'));
  });

  it('refuses a rotation from a key already replaced, or to the same key', () => {
    given(keyRingDecider, rotated('k2', 'k1')).when(rotate('k3', 'k1')).thenError('key-rotated-meanwhile');
    given(keyRingDecider).when(rotate('k1', 'k1')).thenError('key-unchanged');
  });
});
