#!/usr/bin/env node
// Bundles the /panel page's browser code (panel/, TypeScript) with chart.js into dist/panel/, the folder the service
// serves the page's assets from: every asset local, no CDN. Run by prestart, pretest, build and the Dockerfile.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `node scripts/build-panel.mjs [outdir]`: dist/panel/ by default.
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'panel'));

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
process.stdout.write(`panel bundled into ${path.relative(root, outdir)}/\n`);
