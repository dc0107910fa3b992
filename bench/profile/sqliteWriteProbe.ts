// Preloaded into the service (--node-arg --import=<this file>; Node strips the types): counts SQLite transactions,
// their time, the slow ones (> 10 ms, the WAL checkpoints) and statement runs per table, every 2 s on stderr.
import { createRequire } from 'node:module';
import path from 'node:path';

type Fn = (...args: unknown[]) => unknown;
interface Db {
  name: string;
}
interface Stats {
  transactions: number;
  transactionMs: number;
  slow: number;
  slowMs: number;
  runs: number;
}

const Database = createRequire(path.join(process.cwd(), 'package.json'))('better-sqlite3') as { prototype: Record<string, Fn> };
const stats = new Map<string, Stats>();
const runsByTable = new Map<string, number>();
const fileOf = (db: Db) => path.basename(db.name);
const statsOf = (file: string): Stats => {
  let s = stats.get(file);
  if (!s) stats.set(file, (s = { transactions: 0, transactionMs: 0, slow: 0, slowMs: 0, runs: 0 }));
  return s;
};

const transaction = Database.prototype.transaction!;
Database.prototype.transaction = function (this: Db, fn: unknown) {
  const wrapped = transaction.call(this, fn) as Fn & Record<string, unknown>;
  const s = statsOf(fileOf(this));
  const time = (run: Fn) =>
    function (this: unknown, ...args: unknown[]) {
      const started = performance.now();
      try {
        return run.apply(this, args);
      } finally {
        const ms = performance.now() - started;
        s.transactions++;
        s.transactionMs += ms;
        if (ms > 10) {
          s.slow++;
          s.slowMs += ms;
        }
      }
    };
  const timed = time(wrapped);
  // Every mode timed too (`.immediate()` is how the read store's writes begin).
  for (const mode of ['deferred', 'immediate', 'exclusive', 'default']) Object.assign(timed, { [mode]: time(wrapped[mode] as Fn) });
  return timed;
};

const prepare = Database.prototype.prepare!;
Database.prototype.prepare = function (this: Db, sql: unknown) {
  const statement = prepare.call(this, sql) as { run: Fn };
  const key = `${fileOf(this)} ${/(?:INTO|UPDATE|FROM)\s+"?(\w+)/i.exec(String(sql))?.[1] ?? '?'}`;
  const s = statsOf(fileOf(this));
  const run = statement.run;
  statement.run = function (this: unknown, ...args: unknown[]) {
    s.runs++;
    runsByTable.set(key, (runsByTable.get(key) ?? 0) + 1);
    return run.apply(this, args);
  };
  return statement;
};

setInterval(() => {
  const rounded = [...stats].map(([file, s]): [string, Stats] => [
    file,
    { ...s, transactionMs: Math.round(s.transactionMs), slowMs: Math.round(s.slowMs) },
  ]);
  process.stderr.write(
    `SQLITE_PROBE ${JSON.stringify({ stats: Object.fromEntries(rounded), runsByTable: Object.fromEntries(runsByTable) })}\n`,
  );
}, 2000).unref();
