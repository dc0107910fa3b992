// The tenant hash chain on EventStoreDB: each event's link (hash, sequence number, genesis mark) travels in its
// metadata; appends of one tenant are serialised in this process so the chain follows the $all order.
import type { ChainHead, EventMetadata, NewEvent } from '../eventStore.js';
import { chainHashOfText, genesisHash } from '../chain/hashChain.js';

/** The metadata key holding the link. Written last, so the rest of the metadata keeps its hashed text. */
export const CHAIN_KEY = 'chainLink';

export interface StoredLink {
  hash: string;
  /** 0 for the tenant's first chained event (its genesis). */
  seq: number;
}

/** The application metadata and the chain link of a stored event's metadata. */
export function splitChain(stored: Record<string, unknown> | undefined): { metadata: EventMetadata; link: StoredLink | null } {
  if (!stored || !(CHAIN_KEY in stored)) return { metadata: stored as unknown as EventMetadata, link: null };
  const { [CHAIN_KEY]: link, ...metadata } = stored;
  const valid = link && typeof link === 'object' && typeof (link as StoredLink).hash === 'string';
  return { metadata: metadata as unknown as EventMetadata, link: valid ? (link as StoredLink) : null };
}

/** The metadata to store for each event, linked to the tenant's head (null: these events start its chain). */
export function linkEvents(
  tenant: string,
  stream: string,
  head: Omit<ChainHead, 'position'> | null,
  events: NewEvent[],
): { metadata: Record<string, unknown>[]; head: Omit<ChainHead, 'position'> } {
  let prev = head?.hash ?? genesisHash(tenant);
  let seq = head ? head.count : 0;
  const metadata = events.map((e) => {
    prev = chainHashOfText(prev, e.id, stream, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata));
    return { ...e.metadata, [CHAIN_KEY]: { hash: prev, seq: seq++ } satisfies StoredLink };
  });
  return { metadata, head: { hash: prev, count: seq } };
}

/** Runs one piece of work per tenant at a time, in call order. */
export function tenantQueue(): <T>(tenant: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (tenant, work) => {
    const run = (tails.get(tenant) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(tenant, tail);
    void tail.then(() => tails.get(tenant) === tail && tails.delete(tenant));
    return run;
  };
}
