// Signed checkpoints of each tenant's chain head: at an interval (and on demand) the head is signed with the
// service's Ed25519 key and appended to DATA_DIR/chain-checkpoints/<tenant>.ndjson, so auditors can export them
// and verify an exported chain segment without trusting the service (scripts/verify-checkpoint.mjs).
import { sign } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { EventStore } from '../stores/eventStore.js';
import type { SigningKey } from './signingKey.js';

export interface SignedCheckpoint {
  tenant: string;
  /** 1, 2, 3... per tenant. */
  sequence: number;
  /** Position of the chain head signed (a string: positions exceed JSON's safe integers on EventStoreDB). */
  position: string;
  hash: string;
  /** Chained events up to the head. */
  count: number;
  signedAt: string;
  algorithm: 'Ed25519';
  keyId: string;
  /** Base64 Ed25519 signature of checkpointMessage(). */
  signature: string;
}

/** The exact text signed; scripts/verify-checkpoint.mjs builds the same. */
export function checkpointMessage(c: Omit<SignedCheckpoint, 'signature' | 'algorithm'>): string {
  return `dialysis-chain-checkpoint/v1\n${JSON.stringify([c.tenant, c.sequence, c.position, c.hash, c.count, c.signedAt, c.keyId])}`;
}

export interface ChainCheckpoints {
  /** Signs the tenant's head unless the last checkpoint already holds it; null for a tenant without a chain. */
  checkpointNow(tenant: string): Promise<SignedCheckpoint | null>;
  /** Newest first. */
  list(tenant: string): Promise<SignedCheckpoint[]>;
  get(tenant: string, sequence: number): Promise<SignedCheckpoint | null>;
}

export function createChainCheckpoints(deps: { dataDir: string; key: SigningKey; events: EventStore; now: () => Date }): ChainCheckpoints {
  const dir = path.join(deps.dataDir, 'chain-checkpoints');
  const fileOf = (tenant: string) => path.join(dir, `${tenant}.ndjson`);
  /** One checkpoint of a tenant at a time: sequences never repeat. */
  const writing = new Map<string, Promise<unknown>>();

  async function readAll(tenant: string): Promise<SignedCheckpoint[]> {
    let text: string;
    try {
      text = await fs.readFile(fileOf(tenant), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as SignedCheckpoint);
  }

  async function write(tenant: string): Promise<SignedCheckpoint | null> {
    const head = await deps.events.chainHead(tenant);
    if (!head) return null;
    const existing = await readAll(tenant);
    const last = existing[existing.length - 1];
    if (last && last.hash === head.hash) return last;
    const unsigned = {
      tenant,
      sequence: (last?.sequence ?? 0) + 1,
      position: String(head.position),
      hash: head.hash,
      count: head.count,
      signedAt: deps.now().toISOString(),
      keyId: deps.key.keyId,
    };
    const signature = sign(null, Buffer.from(checkpointMessage(unsigned)), deps.key.privateKey).toString('base64');
    const checkpoint: SignedCheckpoint = { ...unsigned, algorithm: 'Ed25519', signature };
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const handle = await fs.open(fileOf(tenant), 'a', 0o600);
    try {
      await handle.appendFile(JSON.stringify(checkpoint) + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    return checkpoint;
  }

  return {
    checkpointNow(tenant) {
      const run = (writing.get(tenant) ?? Promise.resolve()).then(() => write(tenant));
      writing.set(
        tenant,
        run.catch(() => undefined),
      );
      return run;
    },
    list: async (tenant) => (await readAll(tenant)).reverse(),
    get: async (tenant, sequence) => (await readAll(tenant)).find((c) => c.sequence === sequence) ?? null,
  };
}
