// The large event log of the scale section, built once under bench/tmp and reused. The real service bootstraps
// the directory first (so the bench administrator's company holds half the patients and sign-in works as in
// production); then the dataset's patients (dataset.ts: the real deciders, the same events and ids) are written
// with the store's own schema and insert statement in large transactions: the service's append path (a
// transaction per turn of the event loop) makes ~27k events/s here, too slow for 10M events.
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import path from 'node:path';
import { openEventDatabase } from '../src/stores/sqlite/sqliteSchema.js';
import { prepareStatements } from '../src/stores/sqlite/sqliteStatements.js';
import { chainHashOfText, genesisHash } from '../src/stores/chain/hashChain.js';
import { PLATFORM_TENANT, streamName, tenantOfStream } from '../src/stores/eventStore.js';
import { BOOTSTRAP_ID, bootstrapDecider } from '../src/commands/platform/bootstrap/decider.js';
import { READ_STORE_FILE } from '../src/stores/openReadStore.js';
import { datasetRandom, patientStreams, type DatasetStream } from './dataset.js';
import { startService } from './processes.js';

/** Bump when the log's content changes, so an older cache is rebuilt instead of reused. */
export const SCALE_LOG_VERSION = 3;
export const EVENTS_FILE = 'events.sqlite';
/** The tenant of the other half of the patients: a company the bench administrator does not belong to. */
const OTHER_TENANT = 'benchnorte';
const PATIENTS_PER_TRANSACTION = 1000;
/** Page cache of the generating connection (KiB, negative = size): random event ids keep index pages hot. */
const GENERATION_CACHE_KIB = 256 * 1024;

export interface ScaleLog {
  /** A data directory of the service: the log, the service's keys, and its read-model file once started. */
  dir: string;
  events: number;
  patients: number;
  /** The bootstrap company: the bench administrator's, holding the even-numbered patients. */
  companyId: string;
}

/** The same rows appendToStream writes for new streams (sqliteAppendBatch.ts), many streams in one transaction. */
export function bulkWriter(db: Database.Database): { immediate(streams: DatasetStream[]): number } {
  const st = prepareStatements(db);
  const heads = new Map<string, string>(); // each tenant's chain head: this connection is the only writer
  return db.transaction((streams: DatasetStream[]) => {
    let count = 0;
    for (const { stream, events } of streams) {
      const tenant = tenantOfStream(stream);
      let prev = heads.get(tenant) ?? st.tenantLastHash.get(tenant)?.hash ?? null;
      events.forEach((e, revision) => {
        const genesis = prev === null;
        const [id, data, metadata] = [e.id.toLowerCase(), JSON.stringify(e.data), JSON.stringify(e.metadata)];
        prev = chainHashOfText(prev ?? genesisHash(tenant), id, stream, e.type, data, metadata);
        const info = st.insert.run(stream, revision, tenant, id, e.type, data, metadata, prev);
        if (genesis) st.insertGenesis.run(tenant, Number(info.lastInsertRowid));
      });
      if (prev !== null) heads.set(tenant, prev);
      count += events.length;
    }
    return count;
  });
}

export async function ensureScaleLog(
  root: string,
  target: number,
  service: { env: Record<string, string>; port: number },
  log: (s: string) => void,
): Promise<ScaleLog> {
  const dir = path.join(root, `scale-v${SCALE_LOG_VERSION}-${target}`);
  const done = path.join(dir, 'COMPLETE');
  if (fs.existsSync(done)) return { dir, ...(JSON.parse(fs.readFileSync(done, 'utf8')) as Omit<ScaleLog, 'dir'>) };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });

  log(`  scale log: bootstrapping ${dir} with the real service`);
  const first = await startService({ ...service.env, DATA_DIR: dir }, service.port);
  await first.stop();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, READ_STORE_FILE + suffix), { force: true });

  const { db } = openEventDatabase(path.join(dir, EVENTS_FILE));
  try {
    db.pragma(`cache_size = -${GENERATION_CACHE_KIB}`);
    const claim = db
      .prepare<[string], { data: string }>(`SELECT data FROM events WHERE stream = ? AND type = 'BootstrapClaimed'`)
      .get(streamName(PLATFORM_TENANT, bootstrapDecider.category, BOOTSTRAP_ID));
    if (!claim) throw new Error(`the service did not bootstrap ${dir}`);
    const companyId = (JSON.parse(claim.data) as { companyId: string }).companyId;

    const writeStreams = bulkWriter(db);

    const tenants = [companyId, OTHER_TENANT];
    const rand = datasetRandom();
    const started = Date.now();
    let written = 0;
    let patients = 0;
    let reported = 0;
    while (written < target) {
      const streams: DatasetStream[] = [];
      let pending = 0;
      for (let b = 0; b < PATIENTS_PER_TRANSACTION && written + pending < target; b++, patients++) {
        const patient = patientStreams(tenants[patients % tenants.length]!, patients, rand);
        streams.push(...patient);
        pending += patient.reduce((sum, s) => sum + s.events.length, 0);
      }
      written += writeStreams.immediate(streams);
      if (written - reported >= 500_000 || written >= target) {
        reported = written;
        const seconds = (Date.now() - started) / 1000;
        log(`  scale log: ${written} events, ${patients} patients (${Math.round(written / seconds)} events/s)`);
      }
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const figures = { events: written, patients, companyId };
    fs.writeFileSync(done, JSON.stringify(figures));
    log(`  scale log: ${written} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { dir, ...figures };
  } finally {
    db.close();
  }
}
