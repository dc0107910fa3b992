// Prepared statements and row mapping of the SQLite event store.
import type Database from 'better-sqlite3';
import type { EventMetadata, RecordedEvent } from '../eventStore.js';

export interface EventRow {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

const COLUMNS = 'position, stream, revision, event_id, type, data, metadata';

export function prepareStatements(db: Database.Database) {
  return {
    headRevision: db.prepare<[string], { revision: number }>(
      'SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    ),
    insert: db.prepare<[string, number, string, string, string, string, string]>(
      'INSERT INTO events (stream, revision, tenant, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byEventId: db.prepare<[string], EventRow>(`SELECT ${COLUMNS} FROM events WHERE event_id = ?`),
    streamForwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
    ),
    streamBackwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    ),
    allAfter: db.prepare<[number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`,
    ),
    tenantAfter: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE tenant = ? AND position > ? ORDER BY position ASC LIMIT ?`,
    ),
    head: db.prepare<[], { p: number | null }>('SELECT max(position) AS p FROM events'),
    tenantHead: db.prepare<[string], { p: number | null }>('SELECT max(position) AS p FROM events WHERE tenant = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    streamName: row.stream,
    revision: row.revision,
    position: BigInt(row.position),
  };
}
