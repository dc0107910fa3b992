// Tamper evidence of the event log, as one service: the signing key, signed checkpoints of every tenant's chain
// head at an interval, and background verifications of a tenant's chain.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { EventStore } from '../stores/eventStore.js';
import { createChainCheckpoints, type ChainCheckpoints } from './chainCheckpoints.js';
import { createChainVerifications, type ChainVerifications } from './chainVerifications.js';
import { loadOrCreateSigningKey, loadRetiredKeys, rotateSigningKey, type RetiredKey } from './signingKey.js';

export interface Integrity {
  checkpoints: ChainCheckpoints;
  verifications: ChainVerifications;
  /** The current key, and the retired ones older checkpoints were signed with. */
  publicKey: { algorithm: 'Ed25519'; keyId: string; publicKeyPem: string; retired: RetiredKey[] };
  /** A new signing key for the checkpoints to come (the old public key stays listed in `retired`). */
  rotateKey(): Promise<{ keyId: string; previousKeyId: string }>;
  /** Signs the head of every tenant's chain now and then every CHAIN_CHECKPOINT_INTERVAL_SECONDS (0: never by itself). */
  startCheckpoints(tenants: () => Promise<string[]>): void;
  close(): Promise<void>;
}

export async function createIntegrity(deps: {
  config: Pick<Config, 'dataDir' | 'eventStoreUrl' | 'chainSigningKeyFile' | 'chainCheckpointIntervalSeconds'>;
  logger: Logger;
  now: () => Date;
  events: EventStore;
}): Promise<Integrity> {
  const { config, logger } = deps;
  const key = await loadOrCreateSigningKey(config.dataDir, config.chainSigningKeyFile);
  const publicKey = {
    algorithm: 'Ed25519' as const,
    keyId: key.keyId,
    publicKeyPem: key.publicKeyPem,
    retired: await loadRetiredKeys(config.dataDir),
  };
  const checkpoints = createChainCheckpoints({ dataDir: config.dataDir, key, events: deps.events, now: deps.now });
  const verifications = createChainVerifications(deps);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  async function signAll(tenants: () => Promise<string[]>): Promise<void> {
    for (const tenant of await tenants()) {
      if (closed) return;
      await checkpoints.checkpointNow(tenant);
    }
  }

  return {
    checkpoints,
    verifications,
    publicKey,
    async rotateKey() {
      const previousKeyId = key.keyId;
      const fresh = await rotateSigningKey(config.dataDir, config.chainSigningKeyFile, key, deps.now().toISOString());
      Object.assign(key, fresh); // the checkpoints sign with this same object
      Object.assign(publicKey, { keyId: fresh.keyId, publicKeyPem: fresh.publicKeyPem, retired: await loadRetiredKeys(config.dataDir) });
      return { keyId: fresh.keyId, previousKeyId };
    },
    startCheckpoints(tenants) {
      const everyMs = config.chainCheckpointIntervalSeconds * 1000;
      if (everyMs <= 0) return;
      const schedule = (delay: number) => {
        timer = setTimeout(() => {
          running = signAll(tenants)
            .catch((err: unknown) => logger.error('chain checkpoints failed', { error: String(err) }))
            .finally(() => !closed && schedule(everyMs));
        }, delay);
        timer.unref();
      };
      schedule(everyMs);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
      await verifications.close();
    },
  };
}
