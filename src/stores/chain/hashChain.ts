// The tenant hash chain's one definition: what an event's hash covers, shared by both stores, the verification
// worker and (copied, dependency-free) scripts/verify-checkpoint.mjs.
import { createHash } from 'node:crypto';
import type { ChainedEvent, RecordedEvent } from '../eventStore.js';

/** The hash before a tenant's first chained event. */
export function genesisHash(tenant: string): string {
  return createHash('sha256').update(`dialysis-chain-genesis\n${tenant}`).digest('hex');
}

/**
 * sha256(prev \n [id, stream, type] \n data \n metadata), data and metadata as JSON in their stored key order (a
 * JSON read back and written again gives the same text). The stores pass the text they store: one hash, no
 * extra serialisation.
 */
export function chainHashOfText(prev: string, id: string, stream: string, type: string, dataJson: string, metadataJson: string): string {
  return createHash('sha256')
    .update(`${prev}\n${JSON.stringify([id.toLowerCase(), stream, type])}\n${dataJson}\n${metadataJson}`)
    .digest('hex');
}

export function chainHash(prev: string, e: Pick<RecordedEvent, 'id' | 'streamName' | 'type' | 'data' | 'metadata'>): string {
  return chainHashOfText(prev, e.id, e.streamName, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata));
}

export interface BrokenLink {
  position: string;
  eventId: string;
  stream: string;
  revision: number;
  expectedHash: string;
  foundHash: string | null;
}

export type SegmentResult = { ok: true; checked: number; head: string } | { ok: false; checked: number; broken: BrokenLink };

/** Checks consecutive chained events from the hash before the first; names the first event whose hash differs. */
export function verifyChainSegment(tenant: string, prev: string, events: readonly ChainedEvent[]): SegmentResult {
  let checked = 0;
  for (const e of events) {
    const expected = chainHash(prev, e);
    if (e.hash !== expected || !e.streamName.startsWith(`${tenant}.`)) {
      const broken = {
        position: String(e.position),
        eventId: e.id,
        stream: e.streamName,
        revision: e.revision,
        expectedHash: expected,
        foundHash: e.hash,
      };
      return { ok: false, checked, broken };
    }
    prev = expected;
    checked++;
  }
  return { ok: true, checked, head: prev };
}
