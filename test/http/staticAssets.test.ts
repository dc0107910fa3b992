// The /panel and /docs pages' assets over real HTTP (issue 27 items 4 and 5): the .br and .gz the build wrote are sent
// as they are on disk (compressed in memory once when absent), each representation with its own ETag, under
// content-hashed URLs cached for a year, while the HTML itself is revalidated so a new deploy is seen at once.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, cp } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../support/harness.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

describe('Static assets: precompressed files and content-hashed URLs', () => {
  let server: TestServer;
  let built: string;

  const raw = (url: string, headers: Record<string, string> = {}): Promise<Raw> =>
    new Promise((resolve, reject) => {
      http
        .get(`${server.url}${url}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  const assetsOf = async (page: string): Promise<string[]> => {
    const answer = await raw(page);
    assert.equal(answer.status, 200, page);
    return [...answer.bytes.toString('utf8').matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
  };
  const assetUrl = async (page: string, logical: RegExp): Promise<string> => {
    const url = (await assetsOf(page)).find((u) => logical.test(u));
    assert.ok(url, `${page} references ${logical}`);
    return url;
  };
  const hashOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

  before(async () => {
    // The build the service is started after (prestart, pretest, Dockerfile), into a folder of this test's own.
    built = await mkdtemp(path.join(os.tmpdir(), 'static-assets-'));
    await promisify(execFile)(process.execPath, ['scripts/build-panel.mjs', path.join(built, 'panel'), path.join(built, 'docs')], {
      cwd: root,
    });
    process.env.PANEL_DIR = path.join(built, 'panel');
    server = await startTestServer();
  });
  after(async () => {
    delete process.env.PANEL_DIR;
    await server?.close();
    await rm(built, { recursive: true, force: true });
  });

  it('the build writes a .br and a .gz beside each text asset that decompress to it', async () => {
    for (const file of ['panel/panel.js', 'panel/panel.css', 'docs/swagger-ui-bundle.js', 'docs/swagger-ui.css']) {
      const bytes = await readFile(path.join(built, file));
      assert.ok(zlib.brotliDecompressSync(await readFile(path.join(built, `${file}.br`))).equals(bytes), `${file}.br`);
      assert.ok(zlib.gunzipSync(await readFile(path.join(built, `${file}.gz`))).equals(bytes), `${file}.gz`);
    }
  });

  it('the pages reference their assets by content-hashed URLs, served immutable; the HTML is no-cache', async () => {
    for (const [page, dir, files] of [
      ['/panel', path.join(built, 'panel'), ['panel.js', 'panel.css']],
      ['/docs', path.join(root, 'dist', 'docs'), ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-16x16.png']],
    ] as const) {
      const html = await raw(page);
      assert.equal(html.headers['cache-control'], 'no-cache', `${page} is revalidated`);
      assert.match(String(html.headers['content-security-policy']), /script-src 'self'(;|$)/);
      const urls = await assetsOf(page);
      for (const file of files) {
        const bytes = await readFile(path.join(dir, file));
        const dot = file.lastIndexOf('.');
        const url = `${page}/assets/${file.slice(0, dot)}.${hashOf(bytes)}${file.slice(dot)}`;
        assert.ok(urls.includes(url), `${page} references ${url} (has ${urls.join(', ')})`);
      }
      for (const url of urls) {
        const answer = await raw(url);
        assert.equal(answer.status, 200, url);
        assert.equal(answer.headers['cache-control'], IMMUTABLE, url);
      }
    }
  });

  it('gzip and br answers are the files on disk byte for byte, with Vary, a known length and an ETag per coding', async () => {
    for (const [page, file, dir] of [
      ['/panel', 'panel.js', path.join(built, 'panel')],
      ['/panel', 'panel.css', path.join(built, 'panel')],
      ['/docs', 'swagger-ui-bundle.js', path.join(root, 'dist', 'docs')],
    ] as const) {
      const url = await assetUrl(page, new RegExp(`/${file.split('.')[0]}\\.[0-9a-f]{12}\\.${file.split('.').pop()}$`));
      const identity = await raw(url, { 'accept-encoding': 'identity' });
      assert.equal(identity.headers['content-encoding'], undefined);
      assert.ok(identity.bytes.equals(await readFile(path.join(dir, file))), `${url} identity`);
      const etags = new Set([String(identity.headers.etag)]);
      for (const [coding, ext, decode] of [
        ['br', '.br', zlib.brotliDecompressSync],
        ['gzip', '.gz', zlib.gunzipSync],
      ] as const) {
        const answer = await raw(url, { 'accept-encoding': coding });
        assert.equal(answer.headers['content-encoding'], coding, url);
        assert.ok(String(answer.headers.vary).toLowerCase().includes('accept-encoding'), `${url} Vary`);
        assert.equal(Number(answer.headers['content-length']), answer.bytes.length);
        assert.ok(answer.bytes.equals(await readFile(path.join(dir, file + ext))), `${url} ${coding} is the ${ext} file`);
        assert.ok(decode(answer.bytes).equals(identity.bytes), `${url} ${coding} decodes to the asset`);
        assert.match(String(answer.headers.etag), /^"[^"]+"$/, 'a strong ETag');
        etags.add(String(answer.headers.etag));
        const again = await raw(url, { 'accept-encoding': coding, 'if-none-match': String(answer.headers.etag) });
        assert.equal(again.status, 304, `${url} ${coding} If-None-Match`);
        assert.equal(again.headers.etag, answer.headers.etag, 'the 304 names the representation the client holds');
        assert.equal(again.bytes.length, 0);
      }
      assert.equal(etags.size, 3, `identity, br and gzip each have their own ETag (${[...etags].join(' ')})`);
      assert.equal((await raw(url, { 'if-none-match': String(identity.headers.etag) })).status, 304);
    }
  });

  it('an old or unknown hash answers 404; the bare name still answers, revalidated', async () => {
    const url = await assetUrl('/panel', /panel\.[0-9a-f]{12}\.js$/);
    const stale = url.replace(/\.[0-9a-f]{12}\.js$/, '.0123456789ab.js');
    assert.equal((await raw(stale)).status, 404);
    assert.equal((await raw('/docs/assets/swagger-ui-bundle.000000000000.js')).status, 404);
    const bare = await raw('/panel/assets/panel.js');
    assert.equal(bare.status, 200);
    assert.equal(bare.headers['cache-control'], 'no-cache');
  });

  it('a changed asset gets a new URL, and its old URL stops answering', async () => {
    const before = await assetUrl('/panel', /panel\.[0-9a-f]{12}\.css$/);
    // A new deploy: another build folder with a changed style sheet, no compressed forms (a dev checkout's).
    const next = path.join(built, 'next');
    await cp(path.join(built, 'panel'), next, { recursive: true });
    await rm(path.join(next, 'panel.css.br'));
    await rm(path.join(next, 'panel.css.gz'));
    const css = Buffer.concat([await readFile(path.join(next, 'panel.css')), Buffer.from('\nbody { margin: 0; }\n')]);
    await writeFile(path.join(next, 'panel.css'), css);
    process.env.PANEL_DIR = next;
    try {
      const after = await assetUrl('/panel', /panel\.[0-9a-f]{12}\.css$/);
      assert.notEqual(after, before);
      assert.ok(after.endsWith(`.${hashOf(css)}.css`));
      assert.equal((await raw(before)).status, 404, 'the old URL is gone');
      // Compressed in memory (once) when the build wrote no .br/.gz.
      for (const coding of ['br', 'gzip']) {
        const answer = await raw(after, { 'accept-encoding': coding });
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['cache-control'], IMMUTABLE);
        assert.equal(answer.headers['content-encoding'], coding);
        const decoded = coding === 'br' ? zlib.brotliDecompressSync(answer.bytes) : zlib.gunzipSync(answer.bytes);
        assert.ok(decoded.equals(css));
        assert.ok((await raw(after, { 'accept-encoding': coding })).bytes.equals(answer.bytes), 'the same bytes again');
      }
    } finally {
      process.env.PANEL_DIR = path.join(built, 'panel');
    }
  });
});
