#!/usr/bin/env node
// Verifies a signed checkpoint of a company's hash chain and an exported chain segment without trusting the
// service: only Node's crypto and fs. Usage:
//   node scripts/verify-checkpoint.mjs --public-key key.pem --checkpoint checkpoint.json [--segment page1.json ...]
// key.pem: publicKeyPem of GET /sistema/integridad/clave-publica (compare it with the one published to you);
// checkpoint.json: GET /sistema/integridad/puntos-de-control/{sequence}; pages: GET /sistema/integridad/cadena, in order.
// Exit 0: the signature is valid and the segment is an unbroken chain reaching the checkpoint's head; 1 otherwise.
import { createHash, createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
/** The hash before a tenant's first chained event (src/stores/chain/hashChain.ts). */
const genesisHash = (tenant) => sha256(`dialysis-chain-genesis\n${tenant}`);
/** sha256(prev \n [id, stream, type] \n data \n metadata), data and metadata as JSON in their stored key order. */
const chainHash = (prev, e) =>
  sha256(`${prev}\n${JSON.stringify([e.id.toLowerCase(), e.stream, e.type])}\n${JSON.stringify(e.data)}\n${JSON.stringify(e.metadata)}`);
/** The text the checkpoint's signature covers (src/integrity/chainCheckpoints.ts). */
const checkpointMessage = (c) =>
  `dialysis-chain-checkpoint/v1\n${JSON.stringify([c.tenant, c.sequence, c.position, c.hash, c.count, c.signedAt, c.keyId])}`;

function parseArgs(argv) {
  const args = { segments: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag === '--public-key') args.publicKey = value;
    else if (flag === '--checkpoint') args.checkpoint = value;
    else if (flag === '--segment') args.segments.push(value);
    else usage(`unknown option ${flag}`);
  }
  if (!args.publicKey || !args.checkpoint) usage('--public-key and --checkpoint are required');
  return args;
}

function usage(message) {
  process.stderr.write(
    `${message}\nusage: verify-checkpoint.mjs --public-key key.pem --checkpoint checkpoint.json [--segment page.json ...]\n`,
  );
  process.exit(2);
}

function fail(message) {
  process.stdout.write(`FAILED: ${message}\n`);
  process.exit(1);
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

const args = parseArgs(process.argv.slice(2));
const publicKey = createPublicKey(fs.readFileSync(args.publicKey, 'utf8'));
const checkpoint = readJson(args.checkpoint);
const keyId = sha256(publicKey.export({ type: 'spki', format: 'der' }));
if (checkpoint.algorithm !== 'Ed25519') fail(`unknown algorithm ${checkpoint.algorithm}`);
if (checkpoint.keyId !== keyId) fail(`checkpoint signed by key ${checkpoint.keyId}, the given key is ${keyId}`);
const signed = verify(null, Buffer.from(checkpointMessage(checkpoint)), publicKey, Buffer.from(checkpoint.signature, 'base64'));
if (!signed) fail(`the signature of checkpoint ${checkpoint.sequence} of ${checkpoint.tenant} does not verify`);
process.stdout.write(
  `signature valid: checkpoint ${checkpoint.sequence} of ${checkpoint.tenant}, head ${checkpoint.hash} at position ${checkpoint.position} (${checkpoint.count} events), signed ${checkpoint.signedAt}\n`,
);
if (args.segments.length === 0) process.exit(0);

const tenant = checkpoint.tenant;
let prev = null;
let fromGenesis = false;
let checked = 0;
let reached = false;
for (const file of args.segments) {
  const page = readJson(file);
  if (page.tenant !== tenant) fail(`${file} is a segment of ${page.tenant}, not of ${tenant}`);
  if (prev === null) {
    fromGenesis = page.cursor === null;
    // From the chain's start the anchor is computed here; a later start rests on the hash the page states.
    prev = fromGenesis ? genesisHash(tenant) : page.previousHash;
  } else if (page.previousHash !== prev) fail(`${file} does not continue the page before it`);
  for (const e of page.events) {
    const expected = chainHash(prev, e);
    if (!e.stream.startsWith(`${tenant}.`) || e.hash !== expected) {
      fail(`broken link at event ${e.id} (position ${e.position}, stream ${e.stream}): expected hash ${expected}, found ${e.hash}`);
    }
    prev = expected;
    checked++;
    if (e.position === checkpoint.position) {
      if (expected !== checkpoint.hash)
        fail(`the event at the checkpoint's position hashes to ${expected}, not the signed ${checkpoint.hash}`);
      if (fromGenesis && checked !== checkpoint.count) fail(`${checked} events up to the checkpoint, it signed ${checkpoint.count}`);
      reached = true;
    }
  }
}
if (!reached) fail(`the segment (${checked} events) does not reach the checkpoint's position ${checkpoint.position}`);
process.stdout.write(`chain intact: ${checked} events${fromGenesis ? ' from the chain start' : ''}, the checkpoint's head among them\n`);
