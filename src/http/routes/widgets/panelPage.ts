// GET /panel and its assets: the page people look at (sign-in, then the person's dashboard, live), served with every
// asset local from dist/panel/ (bundled from panel/ with chart.js by scripts/build-panel.mjs) under a strict CSP.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Type from 'typebox';
import { route, type HttpResult, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { notFoundProblem } from '../../../problems.js';
import { keepReusable } from '../../reusableBodies.js';
import { closed } from '../shared/fieldSchemas.js';
import { TAG } from './schemas.js';

export const PANEL_ASSET_PREFIX = '/panel/assets';

/** The checkout (or image) root: the first folder up from this file that holds package.json (src/ and dist/src/ alike). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const panelDir = (): string => process.env.PANEL_DIR ?? path.join(projectRoot(), 'dist', 'panel');

const ASSETS: Record<string, string> = {
  'panel.js': 'text/javascript; charset=utf-8',
  'panel.css': 'text/css; charset=utf-8',
};

/** Only this service's own files: no inline script or style, no other origin. */
export const PANEL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const page = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Dialysis unit dashboard</title>
    <link rel="stylesheet" href="${PANEL_ASSET_PREFIX}/panel.css">
    <script src="${PANEL_ASSET_PREFIX}/panel.js" defer></script>
  </head>
  <body>
    <header class="bar">
      <h1>Dialysis unit dashboard<span id="company-name" class="company"></span></h1>
      <button type="button" id="signout" hidden>Sign out</button>
    </header>
    <main>
      <section id="signin" class="card" aria-labelledby="signin-title">
        <h2 id="signin-title">Sign in</h2>
        <form id="signin-form">
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="username" required autofocus>
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required>
          <p id="signin-error" class="error" role="alert"></p>
          <button type="submit">Continue</button>
        </form>
      </section>
      <section id="code" class="card" aria-labelledby="code-title" hidden>
        <h2 id="code-title">Authenticator code</h2>
        <div id="enrollment" hidden>
          <p>Add this account to your authenticator app (scan the code or type the key), then enter the code it shows.</p>
          <img id="enrollment-qr" alt="QR code of the authenticator key">
          <p>Key: <code id="enrollment-secret"></code></p>
        </div>
        <form id="code-form">
          <label for="totp">6-digit code</label>
          <input id="totp" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
          <p id="code-error" class="error" role="alert"></p>
          <button type="submit">Sign in</button>
          <button type="button" id="back" class="link">Back</button>
        </form>
      </section>
      <section id="company" class="card" aria-labelledby="company-title" hidden>
        <h2 id="company-title">Choose the company</h2>
        <ul id="companies" class="companies"></ul>
        <p id="company-error" class="error" role="alert"></p>
      </section>
      <section id="dashboard" aria-labelledby="dashboard-title" hidden>
        <div class="toolbar">
          <h2 id="dashboard-title" tabindex="-1">Dashboard</h2>
          <span id="live" role="status">Connecting…</span>
        </div>
        <p id="status" role="status"></p>
        <p id="updates" class="visually-hidden" aria-live="polite"></p>
        <div id="grid" class="grid"></div>
      </section>
    </main>
  </body>
</html>
`;

export function panelPage(): HttpResult {
  return {
    status: 200,
    body: page,
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': PANEL_CSP, 'Cache-Control': 'no-cache' },
  };
}

const cache = new Map<string, Buffer>();

export async function panelAsset(file: string): Promise<HttpResult> {
  // Own keys only: a name like 'constructor' must not find Object.prototype's.
  const contentType = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!contentType) throw notFoundProblem(`No panel asset named ${file}`);
  let body = cache.get(file);
  if (!body) {
    try {
      // Compressed once, on first use (br, gzip), and revalidated by its strong ETag (no-cache).
      body = keepReusable(await readFile(path.join(panelDir(), file)), 'static');
    } catch {
      throw notFoundProblem(`The panel is not built: run \`node scripts/build-panel.mjs\` (${file} missing)`);
    }
    cache.set(file, body);
  }
  return { status: 200, body, contentType, headers: { 'Cache-Control': 'no-cache' } };
}

export const panelRoutes: RouteDecl[] = [
  {
    method: 'get',
    path: '/panel',
    tag: TAG,
    auth: 'public',
    summary: 'The dashboard page (sign-in, charts, live; assets served locally)',
    responses: {
      200: { description: 'HTML page', contentType: 'text/html', headers: { 'Content-Security-Policy': "Only this service's own files" } },
    },
    handle: () => Promise.resolve(panelPage()),
  },
  route({
    method: 'get',
    path: `${PANEL_ASSET_PREFIX}/{file}`,
    tag: TAG,
    auth: 'public',
    summary: 'Static files of the dashboard page',
    params: closed({ file: Type.String({ minLength: 1, maxLength: 64 }) }),
    responses: {
      200: { description: 'The bundled script or the style sheet', contentType: 'application/octet-stream' },
      404: problem('No such asset'),
    },
    handle: (input) => panelAsset(input.params.file),
  }),
];
