// GET /docs: Swagger UI from the locally installed swagger-ui-dist package (the service works offline:
// no CDN), with the initializer as a file so the page's CSP needs no inline script.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { HttpResult } from '../../routeTypes.js';
import { notFoundProblem } from '../../../problems.js';
import { keepReusable } from '../../reusableBodies.js';

// The package's main module also loads the 1.4 MB bundle into Node; absolute-path.js is the same
// getAbsoluteFSPath() without that cost.
const require = createRequire(import.meta.url);
export const swaggerUiDir: string = (require('swagger-ui-dist/absolute-path.js') as () => string)();

export const DOCS_ASSET_PREFIX = '/docs/assets';
const INITIALIZER = 'docs-initializer.js';

const PACKAGE_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
};

export const DOCS_ASSETS: readonly string[] = [...Object.keys(PACKAGE_ASSETS), INITIALIZER];

const initializerScript = `// Renders /openapi.json with Swagger UI (served by this service); /docs?doc=company renders the signed-in company's
// own modules (/generador/openapi.json), fetched with the token given to Authorize (kept by persistAuthorization).
window.addEventListener('load', function () {
  var company = new URLSearchParams(window.location.search).get('doc') === 'company';
  window.ui = SwaggerUIBundle({
    url: company ? '/generador/openapi.json' : '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    persistAuthorization: true,
    requestInterceptor: function (req) {
      var saved = JSON.parse(window.localStorage.getItem('authorized') || '{}');
      var token = saved.bearerAuth && saved.bearerAuth.value;
      if (token && !req.headers.Authorization) req.headers.Authorization = 'Bearer ' + token;
      return req;
    },
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const page = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Dialysis clinic records API</title>
    <link rel="stylesheet" type="text/css" href="${DOCS_ASSET_PREFIX}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_ASSET_PREFIX}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${DOCS_ASSET_PREFIX}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_ASSET_PREFIX}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${DOCS_ASSET_PREFIX}/${INITIALIZER}" charset="UTF-8"></script>
  </body>
</html>
`;

/** Only this service's own files; Swagger UI sets inline styles, hence 'unsafe-inline' for styles only. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function docsPage(): HttpResult {
  return { status: 200, body: page, contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': DOCS_CSP } };
}

const cache = new Map<string, Buffer>();
const initializerBytes = keepReusable(Buffer.from(initializerScript), 'static');

export async function docsAsset(file: string): Promise<HttpResult> {
  const cacheHeaders = { 'Cache-Control': 'public, max-age=3600' };
  if (file === INITIALIZER) {
    return { status: 200, body: initializerBytes, contentType: 'text/javascript; charset=utf-8', headers: cacheHeaders };
  }
  // Own keys only: a name like 'constructor' must not find Object.prototype's.
  const contentType = Object.hasOwn(PACKAGE_ASSETS, file) ? PACKAGE_ASSETS[file] : undefined;
  if (!contentType) throw notFoundProblem(`No docs asset named ${file}`);
  let body = cache.get(file);
  if (!body) {
    body = keepReusable(await readFile(path.join(swaggerUiDir, file)), 'static');
    cache.set(file, body);
  }
  return { status: 200, body, contentType, headers: cacheHeaders };
}
