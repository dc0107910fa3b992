import { createHash, randomUUID } from 'node:crypto';

// Namespace for the service's UUIDv5 event ids (fixed forever: changing it breaks idempotent retries).
const EVENT_ID_NAMESPACE = 'b8d7c2f4-5a61-4c3e-9f0b-2e7d1a6c9e40';

// Namespaces are few (usually just the one above): parse each once, ids are made on every command.
const namespaceBytes = new Map<string, Buffer>();
function uuidBytes(uuid: string): Buffer {
  let bytes = namespaceBytes.get(uuid);
  if (!bytes) {
    bytes = Buffer.from(uuid.replace(/-/g, ''), 'hex');
    if (namespaceBytes.size < 64) namespaceBytes.set(uuid, bytes);
  }
  return bytes;
}

/** RFC 9562 UUIDv5 (SHA-1, name-based). */
export function uuidV5(name: string, namespace = EVENT_ID_NAMESPACE): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Event id of the index-th event decided for a keyed command: `commandKey` derives from the client's
 * Idempotency-Key, so a retried request yields the same ids. Unkeyed commands take random ids (newId).
 */
export function eventId(tenantId: string, commandKey: string, index: number): string {
  return uuidV5(`${tenantId}\u0000${commandKey}\u0000${index}`);
}

export function newId(): string {
  return randomUUID();
}
