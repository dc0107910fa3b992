// The export verifier on hand-made parts: an intact one passes; a forged checkpoint signature, a checkpoint naming an
// event it did not sign, an edited event and a cut file are each refused at the line that shows it.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chainHash, genesisHash } from '../stores/chain/hashChain.js';
import type { RecordedEvent } from '../stores/eventStore.js';
import { checkpointMessage } from '../integrity/chainCheckpoints.js';
import { EXPORT_FORMAT, ExportRejectedError, type ExportLine } from './exportFormat.js';
import { verifyExport } from './verifyExport.js';

const tenant = 'acme';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const keyId = createHash('sha256')
  .update(publicKey.export({ type: 'spki', format: 'der' }))
  .digest('hex');

function part(): ExportLine[] {
  let prev = genesisHash(tenant);
  const events = [1, 2, 3].map((n) => {
    const e = { id: `00000000-0000-4000-8000-00000000000${n}`, stream: `${tenant}.patient-p1`, type: 'PatientNoted', data: { n } };
    const metadata = { tenantId: tenant, actor: 'u1' };
    prev = chainHash(prev, { ...e, streamName: e.stream, metadata } as unknown as RecordedEvent);
    return { kind: 'event' as const, position: String(n * 10), revision: n - 1, metadata, hash: prev, ...e };
  });
  const unsigned = { tenant, sequence: 1, position: '20', hash: events[1]!.hash, count: 2, signedAt: '2026-01-01T00:00:00.000Z', keyId };
  const signature = sign(null, Buffer.from(checkpointMessage(unsigned)), privateKey).toString('base64');
  return [
    {
      kind: 'header',
      format: EXPORT_FORMAT,
      part: 'events',
      exportId: 'x',
      tenant,
      after: '0',
      through: '30',
      previousHash: genesisHash(tenant),
      exportedAt: '2026-01-01T00:00:00.000Z',
      events: 3,
      publicKey: { algorithm: 'Ed25519', keyId, publicKeyPem },
    },
    { kind: 'checkpoint', ...unsigned, algorithm: 'Ed25519', signature },
    ...events,
    { kind: 'end', events: 3, lastHash: prev },
  ];
}

describe('verifyExport', () => {
  let dir: string;
  before(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verify-export-'))));
  after(() => fs.rm(dir, { recursive: true, force: true }));

  const write = async (lines: ExportLine[]): Promise<string> => {
    const file = path.join(dir, `${Math.random()}.ndjson.gz`);
    await fs.writeFile(file, gzipSync(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
    return file;
  };
  const refused = async (lines: ExportLine[], message: RegExp, line: number) =>
    assert.rejects(verifyExport(await write(lines)), (err: unknown) => {
      assert.ok(err instanceof ExportRejectedError, String(err));
      assert.match(err.message, message);
      assert.equal(err.line, line);
      return true;
    });

  it('passes an intact part, its checkpoint checked against the event it signed', async () => {
    const verified = await verifyExport(await write(part()));
    assert.equal(verified.events, 3);
    assert.deepEqual(verified.checkpoints, { verified: 1, otherKey: 0, beforeExport: 0 });
  });

  it('refuses a forged checkpoint signature', async () => {
    const lines = part();
    Object.assign(lines[1]!, { count: 3 });
    await refused(lines, /signature of checkpoint 1 does not verify/, 2);
  });

  it('refuses a checkpoint whose event is not the one it signed', async () => {
    const lines = part();
    Object.assign(lines[1]!, { position: '30' });
    const unsigned = {
      ...(lines[1] as { tenant: string; sequence: number; position: string; hash: string; count: number; signedAt: string; keyId: string }),
    };
    Object.assign(lines[1]!, { signature: sign(null, Buffer.from(checkpointMessage(unsigned)), privateKey).toString('base64') });
    await refused(lines, /is not the head checkpoint 1 signed/, 5);
  });

  it('names an edited event, and refuses a part cut short', async () => {
    const lines = part();
    Object.assign(lines[3]!, { data: { n: 9 } });
    await refused(lines, /event 00000000-0000-4000-8000-000000000002 .* does not match its chain hash/, 4);
    await refused(part().slice(0, -1), /cut short/, 0);
  });
});
