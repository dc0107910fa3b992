// A backup after key rotations: the retired chain keys (older checkpoints verify with them) and the previous token key
// (tokens already handed out) come back with the restore.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/harness.js';
import { backupStores } from '../../src/ops/backup/onlineBackup.js';
import { restoreBackup } from '../../src/ops/backup/restoreBackup.js';

describe('online backup after key rotations', function () {
  this.timeout(60_000);
  it('restores the retired chain key list and the previous token key', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'dialysis-backup-keyring-'));
    const source = path.join(tmp, 'source');
    const target = path.join(tmp, 'target');
    try {
      const server = await startTestServer({ dataDir: source });
      let retired: unknown;
      try {
        const platform = (await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret)).accessToken;
        const old = (await server.request('GET', '/sistema/integridad/clave-publica')).body;
        const rotated = await server.request('POST', '/sistema/claves/rotacion', {
          token: platform,
          body: { keys: ['tokens', 'chain'], reason: 'yearly' },
        });
        assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
        retired = (await server.request('GET', '/sistema/integridad/clave-publica')).body.retired;
        assert.ok((retired as { keyId: string }[]).some((k) => k.keyId === old.keyId));
        await backupStores(server.services.config, path.join(tmp, 'backup.tar'));
      } finally {
        await server.close();
      }
      await restoreBackup(path.join(tmp, 'backup.tar'), target);
      const restored = await startTestServer({ dataDir: target });
      try {
        assert.deepEqual((await restored.request('GET', '/sistema/integridad/clave-publica')).body.retired, retired);
      } finally {
        await restored.close();
      }
      assert.deepEqual(await fs.readFile(path.join(target, 'jwt.previous.key')), await fs.readFile(path.join(source, 'jwt.previous.key')));
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});
