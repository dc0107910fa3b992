// The service's registration and list next to peers in the same run (issue 12): the list floor (the same 50 documents
// stringified from memory) and a Koa + better-sqlite3 CRUD app doing the same registration and list. Each peer runs
// in its own process; the ratios say how the service compares on its own ground.
import fs from 'node:fs';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { startPeer, type Started } from './processes.js';
import { startPostgres } from './postgresCluster.js';

export interface PeerFigures {
  listFloor: LoadFigures;
  sqliteRegister: LoadFigures;
  sqliteList: LoadFigures;
  /** Null when PostgreSQL could not be had on this machine (the bench said so). */
  pgRegister: LoadFigures | null;
  pgList: LoadFigures | null;
  ratios: {
    registerVsSqlite: number;
    listVsSqlite: number;
    listVsFloor: number;
    registerVsPostgres: number | null;
    listVsPostgres: number | null;
  };
}

const ratio = (a: LoadFigures, b: LoadFigures): number => Number((a.requestsPerSecond / b.requestsPerSecond).toFixed(2));

export async function benchPeers(
  scratch: string,
  port: number,
  seconds: number,
  service: { page: unknown; register: LoadFigures; list: LoadFigures },
  patientBody: (n: number) => string,
): Promise<PeerFigures> {
  const pageFile = path.join(scratch, 'floor-page.json');
  fs.writeFileSync(pageFile, JSON.stringify(service.page));
  const floor = await startPeer('listFloor', port, { PAGE_FILE: pageFile });
  let listFloor: LoadFigures;
  try {
    listFloor = await runLoad({ scenario: 'peer: list floor (50 documents from memory)', url: floor.url, durationSeconds: seconds });
  } finally {
    await floor.stop();
  }
  const sqlite = await crudPeer('sqliteCrud', 'Koa + better-sqlite3', port, scratch, seconds, patientBody);
  const cluster = startPostgres(port + 1, (line) => process.stdout.write(line + '\n'));
  let postgres: { register: LoadFigures; list: LoadFigures } | null = null;
  if (cluster) {
    try {
      postgres = await crudPeer('pgCrud', 'Koa + PostgreSQL (pg)', port, scratch, seconds, patientBody, { PG_URL: cluster.url });
    } finally {
      cluster.stop();
    }
  }
  return {
    listFloor,
    sqliteRegister: sqlite.register,
    sqliteList: sqlite.list,
    pgRegister: postgres?.register ?? null,
    pgList: postgres?.list ?? null,
    ratios: {
      registerVsSqlite: ratio(service.register, sqlite.register),
      listVsSqlite: ratio(service.list, sqlite.list),
      listVsFloor: ratio(service.list, listFloor),
      registerVsPostgres: postgres ? ratio(service.register, postgres.register) : null,
      listVsPostgres: postgres ? ratio(service.list, postgres.list) : null,
    },
  };
}

/** A CRUD peer: seeded with 1000 patients, then the registration and the list under load. */
async function crudPeer(
  name: string,
  label: string,
  port: number,
  scratch: string,
  seconds: number,
  patientBody: (n: number) => string,
  env: Record<string, string> = {},
): Promise<{ register: LoadFigures; list: LoadFigures }> {
  const dataDir = path.join(scratch, `peer-${name}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const peer: Started = await startPeer(name, port, { DATA_DIR: dataDir, ...env }, '/pacientes');
  try {
    const headers = { 'content-type': 'application/json' };
    for (let i = 0; i < 1000; i++) {
      const r = await fetch(`${peer.url}/pacientes`, { method: 'POST', headers, body: patientBody(i) });
      if (r.status !== 201) throw new Error(`seeding the ${label} peer answered ${r.status}`);
    }
    let n = 100_000;
    const register = await runLoad({
      scenario: `peer: ${label} POST /pacientes`,
      url: `${peer.url}/pacientes`,
      method: 'POST',
      headers,
      body: () => patientBody(n++),
      durationSeconds: seconds,
    });
    const list = await runLoad({
      scenario: `peer: ${label} GET /pacientes?limit=50`,
      url: `${peer.url}/pacientes?limit=50`,
      durationSeconds: seconds,
    });
    return { register, list };
  } finally {
    await peer.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
