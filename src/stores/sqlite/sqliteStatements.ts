// Prepared statements and row mapping of the SQLite event store.
import type Database from 'better-sqlite3';
import type { ChainedEvent, EventMetadata, RecordedEvent } from '../eventStore.js';

export interface EventRow {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

/** The same columns as a raw array: reading arrays is ~30% faster than objects on replays of the whole log. */
export type RawEventRow = [
  position: number,
  stream: string,
  revision: number,
  eventId: string,
  type: string,
  data: string,
  metadata: string,
];

/** An event row with its chain hash last. */
export type ChainRow = [...RawEventRow, hash: string | null];

const COLUMNS = 'position, stream, revision, event_id, type, data, metadata';

export function prepareStatements(db: Database.Database) {
  return {
    headRevision: db.prepare<[string], { revision: number }>('SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1'),
    insert: db.prepare<[string, number, string, string, string, string, string, string]>(
      'INSERT INTO events (stream, revision, tenant, event_id, type, data, metadata, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    /** The hash the tenant's next event chains to: its last event's (null before the chain began). */
    tenantLastHash: db.prepare<[string], { hash: string | null }>(
      'SELECT hash FROM events WHERE tenant = ? ORDER BY position DESC LIMIT 1',
    ),
    insertGenesis: db.prepare<[string, number]>('INSERT OR IGNORE INTO chain_genesis (tenant, from_position) VALUES (?, ?)'),
    genesis: db.prepare<[string], { from_position: number }>('SELECT from_position FROM chain_genesis WHERE tenant = ?'),
    chainAfter: db
      .prepare<[string, number, number], ChainRow>(
        `SELECT ${COLUMNS}, hash FROM events WHERE tenant = ? AND position > ? ORDER BY position ASC LIMIT ?`,
      )
      .raw(true),
    chainLast: db.prepare<[string], { position: number; hash: string | null }>(
      'SELECT position, hash FROM events WHERE tenant = ? ORDER BY position DESC LIMIT 1',
    ),
    chainCount: db.prepare<[string, number, number], { n: number }>(
      'SELECT count(*) AS n FROM events WHERE tenant = ? AND position >= ? AND position <= ?',
    ),
    byEventId: db.prepare<[string], EventRow>(`SELECT ${COLUMNS} FROM events WHERE event_id = ?`),
    streamForwards: db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
      )
      .raw(true),
    streamBackwards: db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
      )
      .raw(true),
    allAfter: db
      .prepare<[number, number], RawEventRow>(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`)
      .raw(true),
    tenantAfter: db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${COLUMNS} FROM events WHERE tenant = ? AND position > ? ORDER BY position ASC LIMIT ?`,
      )
      .raw(true),
    head: db.prepare<[], { p: number | null }>('SELECT max(position) AS p FROM events'),
    tenantHead: db.prepare<[string], { p: number | null }>('SELECT max(position) AS p FROM events WHERE tenant = ?'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

export function toRecordedEvent(row: RawEventRow): RecordedEvent {
  return {
    id: row[3],
    type: row[4],
    data: JSON.parse(row[5]) as Record<string, unknown>,
    metadata: JSON.parse(row[6]) as EventMetadata,
    streamName: row[1],
    revision: row[2],
    position: BigInt(row[0]),
  };
}

export function toChainedEvent(row: ChainRow): ChainedEvent {
  return { ...toRecordedEvent(row as unknown as RawEventRow), hash: row[7] };
}

/** toRecordedEvent parsing data and metadata on first read (then kept): handlers that skip the event's type pay none. */
export function toLazyRecordedEvent(row: RawEventRow): RecordedEvent {
  let data: Record<string, unknown> | undefined;
  let metadata: EventMetadata | undefined;
  return {
    id: row[3],
    type: row[4],
    get data() {
      return (data ??= JSON.parse(row[5]) as Record<string, unknown>);
    },
    get metadata() {
      return (metadata ??= JSON.parse(row[6]) as EventMetadata);
    },
    streamName: row[1],
    revision: row[2],
    position: BigInt(row[0]),
  };
}
