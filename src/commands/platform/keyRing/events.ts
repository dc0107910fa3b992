// The platform's record of key rotations (`platform.keyRing-<key>`): which key replaced which, never the key itself.

export type RotatedKey = 'tokens' | 'chain';

export type KeyRingEvent = { type: 'KeyRotated'; data: { key: RotatedKey; keyId: string; previousKeyId: string } };

export const KEY_RING_EVENT_TYPES = ['KeyRotated'] as const;
