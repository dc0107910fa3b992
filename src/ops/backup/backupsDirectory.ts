// Backups the running service takes of itself into DATA_DIR/backups (the platform route): one at a time, each
// recorded as a BackupTaken event of the platform's operations stream (who, when, from where, what was copied).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { PLATFORM_TENANT, streamName, type EventMetadata, type EventStore } from '../../stores/eventStore.js';
import { MANIFEST, type BackupManifest } from './backupArchive.js';
import { backupFileName, backupStores, type BackupSource } from './onlineBackup.js';

export const BACKUP_TAKEN = 'BackupTaken';
export const BACKUPS_DIR = 'backups';

export interface BackupSummary {
  name: string;
  size: number;
  headPosition: string;
  createdAt: string;
}

/** Who asked, for the audit event. */
export interface OperatorCall {
  actor: string;
  sessionId: string | null;
  correlationId: string;
  ip: string | null;
  userAgent: string | null;
}

export class BackupInProgressError extends Error {
  readonly code = 'backup-in-progress';
}

const running = new Set<string>();

/** `platform.operations-<yyyymmdd>`: one stream per UTC day of operator actions. */
export const operationsStream = (at: string): string => streamName(PLATFORM_TENANT, 'operations', at.slice(0, 10).replace(/-/g, ''));

export async function takeBackup(
  services: { config: Config & BackupSource; events: EventStore; logger: Logger; now(): Date },
  call: OperatorCall,
): Promise<BackupSummary> {
  const dir = path.join(services.config.dataDir, BACKUPS_DIR);
  if (running.has(dir)) throw new BackupInProgressError('A backup of this service is already being taken');
  running.add(dir);
  try {
    const at = services.now();
    const { file, size, manifest } = await backupStores(services.config, freeName(dir, backupFileName(at)), { now: () => at });
    const summary = { name: path.basename(file), size, headPosition: manifest.headPosition, createdAt: manifest.createdAt };
    const occurredAt = services.now().toISOString();
    const metadata: EventMetadata = {
      tenantId: PLATFORM_TENANT,
      ...call,
      causationId: null,
      commandId: randomUUID(),
      occurredAt,
      reason: null,
    };
    const data = { ...summary, storeIdentity: manifest.storeIdentity, members: manifest.members.map((m) => m.name) };
    await services.events.appendToStream(operationsStream(occurredAt), [{ id: randomUUID(), type: BACKUP_TAKEN, data, metadata }], {
      expectedRevision: 'any',
    });
    services.logger.info('backup taken', { ...summary, actor: call.actor, correlationId: call.correlationId });
    return summary;
  } finally {
    running.delete(dir);
  }
}

/** The archive's path, with -2, -3... before .tar when one was already taken within the same second. */
function freeName(dir: string, name: string): string {
  let candidate = name;
  for (let n = 2; fs.existsSync(path.join(dir, candidate)); n++) candidate = name.replace(/\.tar$/, `-${n}.tar`);
  return path.join(dir, candidate);
}

/** The archives in DATA_DIR/backups, newest first, each described by its manifest. */
export async function listBackups(dataDir: string): Promise<BackupSummary[]> {
  const dir = path.join(dataDir, BACKUPS_DIR);
  if (!fs.existsSync(dir)) return [];
  const names = fs.readdirSync(dir).filter((n) => /^backup-[0-9TZ]+(-\d+)?\.tar$/.test(n));
  const summaries = await Promise.all(
    names.map(async (name) => {
      const manifest = await manifestOf(path.join(dir, name));
      const size = fs.statSync(path.join(dir, name)).size;
      return { name, size, headPosition: manifest?.headPosition ?? '0', createdAt: manifest?.createdAt ?? '' };
    }),
  );
  return summaries.sort((a, b) => b.name.localeCompare(a.name));
}

/** The manifest, read from the archive without extracting it (null when it has none). */
export async function manifestOf(file: string): Promise<BackupManifest | null> {
  let text: string | null = null;
  await tar.list({
    file,
    onReadEntry: (entry) => {
      if (entry.path !== MANIFEST) return void entry.resume();
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => (text = Buffer.concat(chunks).toString('utf8')));
    },
  });
  return text === null ? null : (JSON.parse(text) as BackupManifest);
}
