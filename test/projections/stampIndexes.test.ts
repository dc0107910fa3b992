// The runner's index on the change stamp (`updatedSince`) is given to every collection a list may ask by it alone, and
// left off the ones a projection declares unstamped: the audit trail's patient rows and stream owners, two of the
// largest tables of the read-model file, are never asked so.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer } from '../support/harness.js';
import { READ_STORE_FILE } from '../../src/stores/openReadStore.js';
import { tableNameOf } from '../../src/stores/sqliteRead/readTable.js';
import { versionSuffix } from '../../src/projections/runner/checkpoints.js';
import { auditProjection } from '../../src/projections/sistema/auditProjection.js';
import { AUDIT_TRAIL } from '../../src/projections/sistema/auditEntryDoc.js';
import { pacientesProjection } from '../../src/projections/pacientes/pacientesProjection.js';

describe('change-stamp indexes of the SQLite read store', () => {
  it('indexes the stamp of every collection but the unstamped ones', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-stamps-'));
    try {
      const server = await startTestServer({ dataDir });
      await server.close();
      const db = new Database(path.join(dataDir, READ_STORE_FILE), { readonly: true });
      const stampIndexed = (projection: { version: number }, logical: string): boolean => {
        const table = tableNameOf(logical + versionSuffix(projection.version));
        const sql = db.prepare<[string], string>(`SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?`).pluck().all(table);
        assert.ok(sql.length > 0, `${table} exists with its key`);
        return sql.some((s) => s?.includes('_changedAt'));
      };
      try {
        assert.equal(stampIndexed(auditProjection, AUDIT_TRAIL.entries), true);
        assert.equal(stampIndexed(pacientesProjection, 'patients'), true);
        assert.equal(stampIndexed(auditProjection, AUDIT_TRAIL.byPatient), false);
        assert.equal(stampIndexed(auditProjection, AUDIT_TRAIL.owners), false);
      } finally {
        db.close();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
