// The pages' static assets under content-hashed URLs (name.<hash>.ext: cached a year, immutable), sent from the .br and
// .gz the build wrote beside each file, or compressed in memory once when absent: no compression work per request.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { notFoundProblem } from '../problems.js';
import { keepReusable, type Coding } from './reusableBodies.js';
import type { HttpResult } from './routeTypes.js';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The checkout (or image) root: the first folder up from this file that holds package.json (src/ and dist/src/ alike). */
export function projectRoot(): string {
  if (root === null) {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    root = dir;
  }
  return root;
}
let root: string | null = null;

export interface AssetSetOptions {
  /** What the assets belong to, for 404 messages ("panel", "docs"). */
  what: string;
  /** The URL prefix the route serves them under. */
  prefix: string;
  /** Each file's media type; own keys only are assets. */
  types: Record<string, string>;
  /** The folders to look in, first found wins (read on every use: a setting may change where they are). */
  dirs: () => string[];
  /** Files made in memory rather than read. */
  inline?: Record<string, Buffer>;
  /** The 404 detail for a known asset whose file is missing. */
  missing: (file: string) => string;
}

interface Loaded {
  body: Buffer;
  hash: string;
}

const DECODE: Record<Coding, (bytes: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };
const EXT: Record<Coding, string> = { br: '.br', gzip: '.gz' };
const HASHED = /^(.+)\.([0-9a-f]{12})(\.[A-Za-z0-9]+)$/;

const hashOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 12);
const readOrNull = (file: string): Promise<Buffer | null> => readFile(file).catch(() => null);

/** The file and the compressed forms found beside it that decode to it (a stale one is left to in-memory compression). */
async function load(dirs: string[], file: string): Promise<Loaded | null> {
  for (const dir of dirs) {
    const body = await readOrNull(path.join(dir, file));
    if (!body) continue;
    const coded: Partial<Record<Coding, Buffer>> = {};
    for (const coding of ['br', 'gzip'] as const) {
      const form = await readOrNull(path.join(dir, file + EXT[coding]));
      if (form && DECODE[coding](form).equals(body)) coded[coding] = form;
    }
    return { body: keepReusable(body, 'static', coded), hash: hashOf(body) };
  }
  return null;
}

export interface AssetSet {
  /** The asset's URL with its content hash, or its bare URL when it cannot be read (that URL answers why). */
  url(file: string): Promise<string>;
  /** GET <prefix>/<name>: a hashed name immutable when the hash is current (404 otherwise); a bare name revalidated. */
  answer(name: string): Promise<HttpResult>;
}

export function assetSet(options: AssetSetOptions): AssetSet {
  const loaded = new Map<string, Promise<Loaded | null>>();
  const known = (file: string): boolean => Object.hasOwn(options.types, file);
  const get = (file: string): Promise<Loaded | null> => {
    const inline = options.inline && Object.hasOwn(options.inline, file) ? options.inline[file] : undefined;
    const dirs = options.dirs();
    const key = inline ? `inline:${file}` : `${dirs.join('\0')}\0${file}`;
    let entry = loaded.get(key);
    if (!entry) {
      entry = inline ? Promise.resolve({ body: keepReusable(inline, 'static'), hash: hashOf(inline) }) : load(dirs, file);
      // A missing file is looked for again next time (a build may have run since).
      void entry.then((found) => found ?? loaded.delete(key));
      loaded.set(key, entry);
    }
    return entry;
  };
  return {
    async url(file) {
      const found = known(file) ? await get(file) : null;
      const dot = file.lastIndexOf('.');
      return found ? `${options.prefix}/${file.slice(0, dot)}.${found.hash}${file.slice(dot)}` : `${options.prefix}/${file}`;
    },
    async answer(name) {
      const hashed = HASHED.exec(name);
      const file = known(name) ? name : hashed ? `${hashed[1]}${hashed[3]}` : name;
      if (!known(file)) throw notFoundProblem(`No ${options.what} asset named ${name}`);
      const found = await get(file);
      if (!found) throw notFoundProblem(options.missing(file));
      if (file !== name && hashed?.[2] !== found.hash) {
        throw notFoundProblem(`No ${options.what} asset named ${name}: an older version (reload the page)`);
      }
      const cacheControl = file === name ? 'no-cache' : IMMUTABLE;
      return { status: 200, body: found.body, contentType: options.types[file], headers: { 'Cache-Control': cacheControl } };
    },
  };
}

/** An HTML page as a reusable body (ETag, compressed once), the same Buffer while its text stays the same. */
export function htmlPage(): (html: string) => Buffer {
  let last: { html: string; body: Buffer } | null = null;
  return (html) => {
    if (last?.html !== html) last = { html, body: keepReusable(Buffer.from(html), 'static') };
    return last.body;
  };
}
