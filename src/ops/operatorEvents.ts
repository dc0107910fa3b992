// Operator actions done on a stopped service's files (a restore, an import) leave the same kind of record as a backup
// over HTTP: an event of the platform's operations stream, appended by briefly opening the event store afterwards.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { openEventStore } from '../stores/openEventStore.js';
import { PLATFORM_TENANT, type EventMetadata, type EventStore } from '../stores/eventStore.js';
import { operationsStream } from './backup/backupsDirectory.js';

export const BACKUP_RESTORED = 'BackupRestored';
export const COMPANY_IMPORTED = 'CompanyImported';

/** `ops:<os user>`, the actor the operator token gives the command line over HTTP. */
export function operatorActor(): string {
  let user: string;
  try {
    user = os.userInfo().username;
  } catch {
    user = process.env.USER ?? 'unknown';
  }
  return `ops:${/^[A-Za-z0-9._@-]{1,64}$/.test(user) ? user : 'unknown'}`; // as the operator token's principal
}

/** Appends one operator event (actor ops:<user>, with the reason) to the platform's operations stream; its position. */
export async function appendOperatorEvent(
  events: EventStore,
  type: string,
  data: Record<string, unknown>,
  reason: string,
  now: Date = new Date(),
): Promise<bigint> {
  const occurredAt = now.toISOString();
  const metadata: EventMetadata = {
    tenantId: PLATFORM_TENANT,
    actor: operatorActor(),
    sessionId: null,
    correlationId: randomUUID(),
    causationId: null,
    commandId: randomUUID(),
    occurredAt,
    ip: null,
    userAgent: 'dialysis-ops',
    reason,
  };
  const appended = await events.appendToStream(operationsStream(occurredAt), [{ id: randomUUID(), type, data, metadata }], {
    expectedRevision: 'any',
  });
  return appended.position;
}

/** The same, opening the data directory's event store for the time of the append (the service is stopped). */
export async function recordOperatorEvent(config: Config, type: string, data: Record<string, unknown>, reason: string): Promise<bigint> {
  const events = await openEventStore(config, createLogger('error'));
  try {
    return await appendOperatorEvent(events, type, data, reason);
  } finally {
    await events.close();
  }
}
