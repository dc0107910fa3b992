// GET /docs: Swagger UI from the locally installed swagger-ui-dist package (the service works offline:
// no CDN), with the initializer as a file so the page's CSP needs no inline script; assets under content-hashed URLs.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { HttpResult } from '../../routeTypes.js';
import { assetSet, htmlPage, projectRoot } from '../../staticAssets.js';

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

const assets = assetSet({
  what: 'docs',
  prefix: DOCS_ASSET_PREFIX,
  types: { ...PACKAGE_ASSETS, [INITIALIZER]: 'text/javascript; charset=utf-8' },
  // dist/docs/: the package's files with the .br and .gz the build wrote; the package itself in a checkout not built.
  dirs: () => [path.join(projectRoot(), 'dist', 'docs'), swaggerUiDir],
  inline: { [INITIALIZER]: Buffer.from(initializerScript) },
  missing: (file) => `swagger-ui-dist has no ${file}`,
});

const page = (url: Record<string, string>): string => `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Dialysis clinic records API</title>
    <link rel="stylesheet" type="text/css" href="${url['swagger-ui.css']}">
    <link rel="icon" type="image/png" href="${url['favicon-32x32.png']}" sizes="32x32">
    <link rel="icon" type="image/png" href="${url['favicon-16x16.png']}" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${url['swagger-ui-bundle.js']}" charset="UTF-8"></script>
    <script src="${url[INITIALIZER]}" charset="UTF-8"></script>
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

const pageBody = htmlPage();

/** The page names its assets by content hash, so it is revalidated (no-cache) while they are kept a year. */
export async function docsPage(): Promise<HttpResult> {
  const urls = await Promise.all(DOCS_ASSETS.map(async (file) => [file, await assets.url(file)] as const));
  return {
    status: 200,
    body: pageBody(page(Object.fromEntries(urls))),
    contentType: 'text/html; charset=utf-8',
    headers: { 'Content-Security-Policy': DOCS_CSP, 'Cache-Control': 'no-cache' },
  };
}

export const docsAsset = (file: string): Promise<HttpResult> => assets.answer(file);
