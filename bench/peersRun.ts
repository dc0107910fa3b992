// The service's registration and list next to peers in the same run (issue 12): the list floor (the same 50 documents
// stringified from memory) and a Koa + better-sqlite3 CRUD app doing the same registration and list. Each peer runs
// in its own process; the ratios say how the service compares on its own ground.
import fs from 'node:fs';
import path from 'node:path';
import { runLoad, type LoadFigures } from './load.js';
import { startPeer } from './processes.js';

export interface PeerFigures {
  listFloor: LoadFigures;
  sqliteRegister: LoadFigures;
  sqliteList: LoadFigures;
  ratios: { registerVsSqlite: number; listVsSqlite: number; listVsFloor: number };
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
  const dataDir = path.join(scratch, 'peer-sqlite');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = await startPeer('sqliteCrud', port, { DATA_DIR: dataDir }, '/pacientes');
  try {
    const headers = { 'content-type': 'application/json' };
    for (let i = 0; i < 1000; i++) {
      const r = await fetch(`${sqlite.url}/pacientes`, { method: 'POST', headers, body: patientBody(i) });
      if (r.status !== 201) throw new Error(`seeding the SQLite peer answered ${r.status}`);
    }
    let n = 100_000;
    const sqliteRegister = await runLoad({
      scenario: 'peer: Koa + better-sqlite3 POST /pacientes',
      url: `${sqlite.url}/pacientes`,
      method: 'POST',
      headers,
      body: () => patientBody(n++),
      durationSeconds: seconds,
    });
    const sqliteList = await runLoad({
      scenario: 'peer: Koa + better-sqlite3 GET /pacientes?limit=50',
      url: `${sqlite.url}/pacientes?limit=50`,
      durationSeconds: seconds,
    });
    return {
      listFloor,
      sqliteRegister,
      sqliteList,
      ratios: {
        registerVsSqlite: ratio(service.register, sqliteRegister),
        listVsSqlite: ratio(service.list, sqliteList),
        listVsFloor: ratio(service.list, listFloor),
      },
    };
  } finally {
    await sqlite.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
