// Which documents a fresh build has written so far, kept as a growing Bloom filter (a few bits per key, never a
// false "not written"): a build that starts from empty tables answers a read of a key it never wrote without the store.

/** Bits per key of each segment (with HASHES probes: about 1 % false "maybe written"). */
const BITS_PER_KEY = 10;
const HASHES = 7;
/** Keys the first segment is sized for; each next one holds twice as many as the one before. */
const FIRST_CAPACITY = 16_384;

interface Segment {
  bits: Uint32Array;
  /** Number of bits (a power of two), minus one: the mask of a probe. */
  mask: number;
  capacity: number;
  count: number;
}

function segment(capacity: number): Segment {
  let size = 1;
  while (size < capacity * BITS_PER_KEY) size *= 2;
  return { bits: new Uint32Array(size / 32), mask: size - 1, capacity, count: 0 };
}

/** Two independent 32-bit hashes of (tenantId, id) (FNV-1a and a multiplicative one), combined for every probe. */
function hashes(tenantId: string, id: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (const part of [tenantId, '\u0000', id]) {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
  }
  return [a >>> 0, (b | 1) >>> 0];
}

export class WrittenKeys {
  private readonly segments: Segment[] = [segment(FIRST_CAPACITY)];

  add(tenantId: string, id: string): void {
    let last = this.segments[this.segments.length - 1]!;
    if (last.count >= last.capacity) this.segments.push((last = segment(last.capacity * 2)));
    const [h1, h2] = hashes(tenantId, id);
    for (let i = 0; i < HASHES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & last.mask;
      last.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
    last.count++;
  }

  /** False only when the key was never added; true when it was (or, rarely, when it was not). */
  mayHave(tenantId: string, id: string): boolean {
    const [h1, h2] = hashes(tenantId, id);
    for (const s of this.segments) {
      let all = true;
      for (let i = 0; i < HASHES && all; i++) {
        const bit = (h1 + Math.imul(i, h2)) & s.mask;
        all = (s.bits[bit >>> 5]! & (1 << (bit & 31))) !== 0;
      }
      if (all) return true;
    }
    return false;
  }
}
