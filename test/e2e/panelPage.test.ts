// The /panel page without the dashboards it will read: served with local assets under a strict CSP, signing in through
// the real flow in headless Chromium, then drawing a dashboard and its live updates from a fixture stream in place.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Route } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/harness.js';
import { launchBrowser, signInThroughPage } from '../support/browser.js';
import { grantMembership, registerCompany } from '../../src/commands/platform/platformWrites.js';

const OUT = path.resolve('test-output');

const counts = (arrived: number) => [
  { key: 'scheduled', label: 'Scheduled', value: 5 },
  { key: 'arrived', label: 'Arrived', value: arrived },
  { key: 'running', label: 'Running', value: 1 },
  { key: 'ended', label: 'Ended', value: 0 },
  { key: 'signed', label: 'Signed', value: 0 },
  { key: 'validated', label: 'Validated', value: 0 },
  { key: 'noShow', label: 'No-show', value: 0 },
  { key: 'cancelled', label: 'Cancelled', value: 0 },
];

const panel = (panelId: string, widgetId: string, x: number, y: number, readable = true) => ({
  panelId,
  widgetId,
  params: {},
  position: { x, y, w: 6, h: 4 },
  readable,
});

const dashboard = {
  id: 'd-fixture',
  scope: 'person',
  ownerUserId: 'u',
  title: 'My dashboard',
  panels: [
    panel('p2', 'patient-census', 6, 0),
    panel('p1', 'today-board', 0, 0),
    panel('p3', 'adequacy-month', 0, 4),
    panel('p4', 'machines-due', 6, 4),
    panel('p5', 'billing-month', 0, 8, false),
  ],
  copiedFrom: null,
  version: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const message = (id: number, panelId: string, widgetId: string, data: unknown): string =>
  `id: ${id}\nevent: widget\ndata: ${JSON.stringify({ panelId, widgetId, params: {}, asOf: { position: String(id), computedAt: new Date().toISOString() }, data })}\n\n`;

describe('The /panel page (served, signed in, drawn from a fixture dashboard)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the page and its bundled assets from the service under a CSP with no inline script or style', async () => {
    const res = await fetch(`${server.url}/panel`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'/);
    const html = await res.text();
    assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]|<style|style=|https?:\/\//, 'no inline script or style, no external URL');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(
      assets.map((a) => a.replace(/\.[0-9a-f]{12}\./, '.<hash>.')).sort(),
      ['/panel/assets/panel.<hash>.css', '/panel/assets/panel.<hash>.js'],
      'content-hashed URLs',
    );
    for (const asset of assets) {
      const a = await fetch(server.url + asset);
      assert.equal(a.status, 200, asset);
      assert.equal(a.headers.get('cache-control'), 'public, max-age=31536000, immutable', asset);
      assert.doesNotMatch(await a.text(), /https?:\/\/cdn|googleapis/, `${asset} loads nothing from elsewhere`);
    }
    assert.equal((await fetch(`${server.url}/panel/assets/..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(`${server.url}/panel/assets/constructor`)).status, 404);
  });

  it('signs in (password, code, the only company chosen by itself), draws every panel and updates it live in place', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.setDefaultTimeout(10_000);
    const violations: string[] = [];
    page.on('console', (m) => /Content.Security.Policy|Refused to/i.test(m.text()) && violations.push(m.text()));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    const lastEventIds: (string | undefined)[] = [];
    await page.route('**/widgets/tableros/mio', (route: Route) => route.fulfill({ json: dashboard, headers: { etag: '"1"' } }));
    await page.route('**/widgets/tableros/d-fixture/eventos', (route: Route) => {
      const headers = route.request().headers();
      assert.match(headers.authorization ?? '', /^Bearer /);
      const last = headers['last-event-id'];
      lastEventIds.push(last);
      const body =
        last === undefined
          ? 'retry: 300\n\n' +
            message(10, 'p1', 'today-board', { counts: counts(2) }) +
            message(10, 'p2', 'patient-census', { counts: [{ key: 'active', label: 'Active', value: 42 }] }) +
            message(10, 'p3', 'adequacy-month', {
              series: [
                {
                  key: 'ktv',
                  label: 'spKt/V',
                  points: [
                    { x: '2026-01', y: 1.3 },
                    { x: '2026-02', y: 1.4 },
                  ],
                },
              ],
            }) +
            message(10, 'p4', 'machines-due', {
              items: [{ id: 'm1', label: 'Machine 7', detail: 'PM due', date: '2026-02-01', severity: 'warning' }],
            })
          : last === '10'
            ? message(12, 'p1', 'today-board', { counts: counts(3) })
            : 'retry: 600000\n\n';
      return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body });
    });

    await signInThroughPage(page, server, server.admin);
    const arrived = page.locator('[data-widget="today-board"][data-key="arrived"]');
    await arrived.waitFor();
    await page.evaluate("window.marker = 'same page'");
    await page.locator('[data-widget="today-board"][data-key="arrived"]:text-is("3")').waitFor();
    assert.equal(await page.evaluate('window.marker'), 'same page', 'no reload');
    assert.equal(lastEventIds[0], undefined);
    assert.equal(lastEventIds[1], '10', 'reconnected with Last-Event-ID');
    assert.equal(await page.locator('[data-widget="today-board"][data-key="scheduled"]').textContent(), '5');
    assert.equal(await page.locator('[data-widget="patient-census"][data-key="active"]').textContent(), '42');
    assert.equal(await page.locator('[data-panel="p4"] .items li').count(), 1);
    assert.match((await page.locator('[data-panel="p5"]').textContent()) ?? '', /may not see/);
    assert.equal(await page.locator('[data-panel] canvas').count(), 3, 'a chart per counts or series panel');
    const order = await page.locator('[data-panel]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-panel')));
    assert.deepEqual(order, ['p1', 'p2', 'p3', 'p4', 'p5'], 'reading (and focus) order follows the layout');
    for (const call of ['POST /auth/login', 'POST /auth/verify-2fa', 'GET /tenants', `POST /tenants/${server.admin.companyId}/select`])
      assert.ok(requests.includes(call), call);
    assert.ok(requests.includes('GET /widgets/catalogo'));
    assert.deepEqual(violations, []);
    assert.match(
      (await page.locator('#updates').textContent()) ?? '',
      /^(today-board|Today's board) updated at /,
      'the update is announced (aria-live)',
    );
    await page.setViewportSize({ width: 768, height: 1024 });
    // The charts follow the new width on their next resize observation.
    let fits = false;
    for (let tries = 0; tries < 40 && !fits; tries++) {
      fits = await page.evaluate<boolean>('document.scrollingElement.scrollWidth <= 768');
      if (!fits) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(fits, 'no sideways scrolling on a portrait tablet');
    await page.setViewportSize({ width: 1024, height: 768 });
    assert.ok(
      !(await page.evaluate<boolean>('Object.keys(localStorage).some((k) => /access|refresh/i.test(k + localStorage.getItem(k)))')),
    );

    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'signout', 'the sign-out button is reachable by keyboard');
    await mkdir(OUT, { recursive: true });
    const file = path.join(OUT, 'panel-fixture.png');
    await page.screenshot({ path: file, fullPage: true });
    console.log(`      screenshot: ${file}`);

    await page.keyboard.press('Enter');
    await page.getByLabel('E-mail').waitFor();
    assert.equal(await page.evaluate("sessionStorage.getItem('panel.tokens')"), null, 'signed out: tokens dropped');
    await page.close();
  });

  it('asks which company when the person has several, and works in the one chosen', async () => {
    const caller = { actor: 'system' };
    const other = await registerCompany(server.services, { name: 'Clinica Dos' }, caller);
    const granted = await grantMembership(
      server.services,
      { companyId: other.companyId, userId: server.admin.userId, roles: ['admin'] },
      caller,
    );
    await server.services.projections.waitFor(granted.position!);
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.setDefaultTimeout(10_000);
    const selected: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && /\/select$/.test(r.url()) && selected.push(new URL(r.url()).pathname));
    await page.route('**/widgets/tableros/mio', (route: Route) => route.fulfill({ json: { ...dashboard, panels: [] } }));
    await page.route('**/widgets/tableros/d-fixture/eventos', (route: Route) =>
      route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'retry: 600000\n\n' }),
    );
    await signInThroughPage(page, server, server.admin);
    await page.getByRole('heading', { name: 'Choose the company' }).waitFor();
    await page.getByRole('button', { name: 'Clinica Dos' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#company-name:has-text("Clinica Dos")').waitFor();
    await page.getByText('This dashboard has no panels.').waitFor();
    assert.deepEqual(selected, [`/tenants/${other.companyId}/select`]);
    await page.close();
  });
});
