// The Ed25519 key that signs chain checkpoints: a PEM file under DATA_DIR created on first start (mode 0600), or the
// file CHAIN_SIGNING_KEY_FILE names. Only its public half leaves the service.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export const DEFAULT_SIGNING_KEY_FILE = 'chain-signing.key';

export interface SigningKey {
  privateKey: KeyObject;
  /** SPKI PEM: what auditors verify checkpoints with. */
  publicKeyPem: string;
  /** sha256 of the public key (SPKI DER), hex: names the key in each checkpoint. */
  keyId: string;
}

export async function loadOrCreateSigningKey(dataDir: string, configuredFile: string | null): Promise<SigningKey> {
  const file = configuredFile ?? path.join(dataDir, DEFAULT_SIGNING_KEY_FILE);
  let pem: string;
  if (configuredFile) pem = await fs.readFile(configuredFile, 'utf8');
  else pem = await createOnce(file);
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${file} must hold an Ed25519 private key (PKCS#8 PEM)`);
  const publicKey = createPublicKey(privateKey);
  const keyId = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), keyId };
}

/** Exclusive creation: of two processes starting at once, the second reads the first one's key. */
async function createOnce(file: string): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`; // two starts in one process too
  try {
    const handle = await fs.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(pem);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.link(tmp, file);
    return pem;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const mode = (await fs.stat(file)).mode & 0o777;
    if (mode & 0o077) await fs.chmod(file, 0o600);
    return fs.readFile(file, 'utf8');
  } finally {
    await fs.rm(tmp, { force: true });
  }
}
