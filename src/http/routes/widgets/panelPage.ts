// GET /panel and its assets: the page people look at (sign-in, then the person's dashboard, live), served with every
// asset local from dist/panel/ (bundled from panel/ with chart.js by scripts/build-panel.mjs, with its .br and .gz)
// under content-hashed URLs and a strict CSP.
import path from 'node:path';
import Type from 'typebox';
import { route, type HttpResult, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { assetSet, htmlPage, projectRoot } from '../../staticAssets.js';
import { closed } from '../shared/fieldSchemas.js';
import { TAG } from './schemas.js';

export const PANEL_ASSET_PREFIX = '/panel/assets';

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

const assets = assetSet({
  what: 'panel',
  prefix: PANEL_ASSET_PREFIX,
  types: ASSETS,
  dirs: () => [panelDir()],
  missing: (file) => `The panel is not built: run \`node scripts/build-panel.mjs\` (${file} missing)`,
});

const page = (css: string, js: string): string => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Dialysis unit dashboard</title>
    <link rel="stylesheet" href="${css}">
    <script src="${js}" defer></script>
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

const pageBody = htmlPage();

/** The page names its assets by content hash, so it is revalidated (no-cache) while they are kept a year. */
export async function panelPage(): Promise<HttpResult> {
  const [css, js] = await Promise.all([assets.url('panel.css'), assets.url('panel.js')]);
  return {
    status: 200,
    body: pageBody(page(css, js)),
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': PANEL_CSP, 'Cache-Control': 'no-cache' },
  };
}

export const panelAsset = (file: string): Promise<HttpResult> => assets.answer(file);

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
    handle: () => panelPage(),
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
