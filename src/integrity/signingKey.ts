// The Ed25519 key that signs chain checkpoints: a PEM file under DATA_DIR created on first start (mode 0600), or the
// file CHAIN_SIGNING_KEY_FILE names. Only its public half leaves the service.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { KeyConfiguredError } from '../auth/keyFiles.js';

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

/** Public halves of keys retired by a rotation: checkpoints they signed still verify with them. */
export const RETIRED_KEYS_FILE = 'chain-signing.retired.json';

export interface RetiredKey {
  keyId: string;
  publicKeyPem: string;
  retiredAt: string;
}

export async function loadRetiredKeys(dataDir: string): Promise<RetiredKey[]> {
  try {
    return JSON.parse(await fs.readFile(path.join(dataDir, RETIRED_KEYS_FILE), 'utf8')) as RetiredKey[];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

async function writePrivately(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await fs.open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}

/** A new Ed25519 key for the checkpoints to come; the public half of the current one joins the retired list first. */
export async function rotateSigningKey(
  dataDir: string,
  configuredFile: string | null,
  current: SigningKey,
  at: string,
): Promise<SigningKey> {
  if (configuredFile)
    throw new KeyConfiguredError('the chain signing key is the file CHAIN_SIGNING_KEY_FILE names: replace that file instead');
  const retired = await loadRetiredKeys(dataDir);
  retired.push({ keyId: current.keyId, publicKeyPem: current.publicKeyPem, retiredAt: at });
  await writePrivately(path.join(dataDir, RETIRED_KEYS_FILE), JSON.stringify(retired, null, 2));
  const { privateKey } = generateKeyPairSync('ed25519');
  await writePrivately(path.join(dataDir, DEFAULT_SIGNING_KEY_FILE), privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  return loadOrCreateSigningKey(dataDir, null);
}
