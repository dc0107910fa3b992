#!/usr/bin/env node
// Bundles the /panel page's browser code (panel/, TypeScript) with chart.js into dist/panel/, the folder the service
// serves the page's assets from: every asset local, no CDN. Beside each text asset it writes its `.br` (quality 11) and
// `.gz` (level 9), and does the same for the /docs page's Swagger UI files copied into dist/docs/, so the service sends
// compressed assets without compressing anything. Run by prestart, pretest, build and the Dockerfile.
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `node scripts/build-panel.mjs [outdir] [docsdir]`: dist/panel/ and dist/docs/ by default.
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'panel'));
const docsdir = path.resolve(process.argv[3] ?? path.join(root, 'dist', 'docs'));
// The Swagger UI files the /docs page loads (src/http/routes/sistema/docsPage.ts); the PNGs are copied, not compressed.
const DOCS_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-16x16.png', 'favicon-32x32.png'];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Writes `<file>.br` and `<file>.gz` beside `file`, unless both are already newer than it. */
async function precompress(file) {
  const source = await stat(file);
  const fresh = await Promise.all(
    ['.br', '.gz'].map((ext) =>
      stat(file + ext).then(
        (s) => s.mtimeMs >= source.mtimeMs,
        () => false,
      ),
    ),
  );
  if (fresh.every(Boolean)) return;
  const bytes = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

/** Copies `from` to `to` when the bytes differ (an unchanged copy keeps its mtime, and so its compressed forms). */
async function copyIfChanged(from, to) {
  const [next, current] = await Promise.all([readFile(from), readFile(to).catch(() => null)]);
  if (!current?.equals(next)) await copyFile(from, to);
}

await mkdir(outdir, { recursive: true });
await build({
  entryPoints: [path.join(root, 'panel', 'main.ts')],
  outfile: path.join(outdir, 'panel.js'),
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'iife',
  target: ['es2022'],
  platform: 'browser',
  legalComments: 'external',
  logLevel: 'warning',
});
await copyFile(path.join(root, 'panel', 'panel.css'), path.join(outdir, 'panel.css'));

const swaggerUiDir = createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js')();
await mkdir(docsdir, { recursive: true });
await Promise.all(DOCS_FILES.map((file) => copyIfChanged(path.join(swaggerUiDir, file), path.join(docsdir, file))));

await Promise.all([
  ...['panel.js', 'panel.css'].map((file) => precompress(path.join(outdir, file))),
  ...DOCS_FILES.filter((file) => !file.endsWith('.png')).map((file) => precompress(path.join(docsdir, file))),
]);
process.stdout.write(
  `panel bundled into ${path.relative(root, outdir)}/, docs assets into ${path.relative(root, docsdir)}/ (with .br, .gz)\n`,
);
