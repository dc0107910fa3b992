// Signed checkpoints over HTTP: the chain head of each company is signed at the configured interval with a key kept
// under DATA_DIR (0600); the checkpoint, the public key and the chain export verify with the standalone script, which
// refuses an edited export or checkpoint. A company sees only its own checkpoints; the platform admin any company's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { streamName } from '../../src/stores/eventStore.js';
import { newEvent } from '../support/eventFixtures.js';
import { startTestServer, type ApiJson, type TestServer } from '../support/harness.js';

const SCRIPT = path.resolve('scripts/verify-checkpoint.mjs');

async function runScript(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, ...args]);
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('signed checkpoints of the hash chain, verified by a standalone script', () => {
  let server: TestServer;
  let token: string;
  let tenant: string;
  let dir: string;
  before(async () => {
    server = await startTestServer({ env: { CHAIN_CHECKPOINT_INTERVAL_SECONDS: '1' } });
    token = await server.signInAndSelect(server.admin);
    tenant = server.admin.companyId;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpoint-export-'));
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = async (p: string, as: string | undefined = token): Promise<ApiJson> => {
    const answer = await server.request('GET', p, as ? { token: as } : {});
    assert.equal(answer.status, 200, `${p}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const save = (name: string, content: unknown): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  it('signs the head at the interval; the checkpoint and the exported chain verify without the service', async () => {
    const given = Array.from({ length: 5 }, (_, i) => newEvent(tenant, { n: i, note: 'ñandú "quoted"' }));
    await server.services.events.appendToStream(streamName(tenant, 'patient', 'p-cp'), given, { expectedRevision: 'no_stream' });
    const head = (await server.services.events.chainHead(tenant))!;

    let checkpoint: ApiJson;
    const deadline = Date.now() + 30_000;
    for (;;) {
      [checkpoint] = (await get('/sistema/integridad/puntos-de-control')).items;
      if (checkpoint?.position === String(head.position)) break;
      assert.ok(Date.now() < deadline, 'a checkpoint of the new head is signed within the interval');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(checkpoint.hash, head.hash);
    assert.equal(checkpoint.count, head.count);
    assert.deepEqual(await get(`/sistema/integridad/puntos-de-control/${checkpoint.sequence}`), checkpoint);

    const key = await get('/sistema/integridad/clave-publica', undefined);
    assert.equal(key.keyId, checkpoint.keyId);
    const keyFile = path.join(server.dataDir, 'chain-signing.key');
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiJson = await get(`/sistema/integridad/cadena?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(save(`page${pages.length}.json`, page));
      cursor = page.nextCursor;
    } while (cursor !== null);
    assert.ok(pages.length >= 3);
    const keyPem = save('key.pem', key.publicKeyPem);
    const checkpointFile = save('checkpoint.json', checkpoint);
    const segments = pages.flatMap((p) => ['--segment', p]);

    const ok = await runScript(['--public-key', keyPem, '--checkpoint', checkpointFile, ...segments]);
    assert.equal(ok.code, 0, ok.stdout);
    assert.match(ok.stdout, /signature valid/);
    assert.match(ok.stdout, /chain intact/);

    // An export edited after it left the service: the script names the event.
    const edited = JSON.parse(fs.readFileSync(pages[1]!, 'utf8'));
    edited.events[0].data.n = 99;
    const editedPage = save('edited.json', edited);
    const broken = await runScript([
      '--public-key',
      keyPem,
      '--checkpoint',
      checkpointFile,
      ...segments.map((a) => (a === pages[1] ? editedPage : a)),
    ]);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, new RegExp(`broken link at event ${edited.events[0].id}`));

    // A checkpoint whose signed fields were changed does not verify.
    const forged = save('forged.json', { ...checkpoint, count: checkpoint.count + 1 });
    const refused = await runScript(['--public-key', keyPem, '--checkpoint', forged]);
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /signature .* does not verify/);
  });

  it('a company sees only its own checkpoints; the platform administrator any company and the platform', async () => {
    const other = await server.createCompanyWithAdmin('Clinica Dos', 'admin2@dos.example', 'another long passphrase');
    const otherToken = await server.signInAndSelect(other);
    const own = (await get('/sistema/integridad/puntos-de-control', otherToken)).items as ApiJson[];
    assert.ok(own.every((c) => c.tenant === other.companyId));
    const platformAdmin = (await server.signIn(server.admin.email, server.admin.password, server.admin.totpSecret)).accessToken;
    const first = (await get(`/sistema/integridad/empresas/${tenant}/puntos-de-control`, platformAdmin)).items as ApiJson[];
    assert.ok(first.length > 0 && first.every((c) => c.tenant === tenant));
    assert.ok(((await get('/sistema/integridad/empresas/platform/puntos-de-control', platformAdmin)).items as ApiJson[]).length > 0);
    const refused = await server.request('GET', `/sistema/integridad/empresas/${tenant}/puntos-de-control`, { token: otherToken });
    assert.equal(refused.status, 403);
    const badCursor = await server.request('GET', '/sistema/integridad/cadena?cursor=abc', { token });
    assert.equal(badCursor.status, 400);
  });
});
