// The event log read as it is on disk (read-only, beside the running service): what the invariants are judged on when
// the API does not show it (claims, consequences per session, every movement of a stock stream).
import Database from 'better-sqlite3';
import path from 'node:path';

export interface LoggedEvent {
  position: number;
  category: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export class EventLog {
  private readonly byStream = new Map<string, LoggedEvent[]>();
  readonly all: LoggedEvent[];

  constructor(readonly events: LoggedEvent[]) {
    this.all = events;
    for (const e of events) {
      const key = `${e.category}-${e.id}`;
      const list = this.byStream.get(key) ?? [];
      list.push(e);
      this.byStream.set(key, list);
    }
  }

  stream(category: string, id: string): LoggedEvent[] {
    return this.byStream.get(`${category}-${id}`) ?? [];
  }

  /** Every stream of a category: its id and events, in order. */
  streams(category: string): [string, LoggedEvent[]][] {
    const prefix = `${category}-`;
    return [...this.byStream.entries()].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]);
  }

  ofType(type: string): LoggedEvent[] {
    return this.all.filter((e) => e.type === type);
  }

  has(category: string, id: string, type: string): boolean {
    return this.stream(category, id).some((e) => e.type === type);
  }
}

/** Reads the whole log of a data directory through a read-only connection (WAL: the running service is not disturbed). */
export function readEventLog(dataDir: string): EventLog {
  const db = new Database(path.join(dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT position, stream, type, data FROM events ORDER BY position').all() as {
      position: number;
      stream: string;
      type: string;
      data: string;
    }[];
    return new EventLog(
      rows.map((r) => {
        // `<tenant>.<category>-<id>`: the category has no dash, the id may.
        const local = r.stream.slice(r.stream.indexOf('.') + 1);
        const dash = local.indexOf('-');
        return {
          position: r.position,
          category: dash < 0 ? local : local.slice(0, dash),
          id: dash < 0 ? '' : local.slice(dash + 1),
          type: r.type,
          data: JSON.parse(r.data) as Record<string, unknown>,
        };
      }),
    );
  } finally {
    db.close();
  }
}
