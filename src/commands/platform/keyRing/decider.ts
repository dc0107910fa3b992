// A rotation names the key it replaces: the current one, so two rotations that raced, or a stale one, are refused.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import type { KeyRingEvent, RotatedKey } from './events.js';

export interface KeyRingState {
  /** Id of the key in use per the last rotation recorded (null before the first). */
  keyId: string | null;
}

export type KeyRingCommand = CommandEnvelope<'RecordKeyRotation', { key: RotatedKey; keyId: string; previousKeyId: string }>;

export const keyRingDecider: Decider<KeyRingCommand, KeyRingEvent, KeyRingState> = {
  category: 'keyRing',
  initialState: { keyId: null },
  evolve: (_s, e) => ({ keyId: e.data.keyId }),
  decide(cmd, s) {
    const { key, keyId, previousKeyId } = cmd.data;
    if (keyId === previousKeyId) throw rule('key-unchanged', 'the new key is the key in use');
    if (s.keyId !== null && s.keyId !== previousKeyId) throw rule('key-rotated-meanwhile', 'another rotation replaced this key first');
    return [{ type: 'KeyRotated', data: { key, keyId, previousKeyId } }];
  },
};
