// Whether a log came through a fault sound: SQLite's own PRAGMA integrity_check of a closed file, and the project's
// verification of a company's hash chain through the running service (POST /sistema/integridad/verificacion).
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { ApiJson, TestServer } from './harness.js';
import { sleep } from './eventFixtures.js';

export function integrityCheck(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  } finally {
    db.close();
  }
}

/** The verification of the token's company chain once it finished: state 'intact' or 'broken'. */
export async function verifyChain(server: TestServer, token: string): Promise<ApiJson> {
  const started = await server.request('POST', '/sistema/integridad/verificacion', { token });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  for (let i = 0; i < 500; i++) {
    const status = await server.request('GET', started.headers.location!, { token });
    if (status.body.state !== 'running') return status.body;
    await sleep(20);
  }
  throw new Error('the chain verification did not finish within 10 s');
}
