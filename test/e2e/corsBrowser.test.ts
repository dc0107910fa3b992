// A browser app on another origin calls the API (a preflighted GET with a bearer token): allowed by CORS_ORIGINS or refused.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { startPacientesWorld, type PacientesWorld } from '../http/pacientesWorld.js';

describe('CORS in headless Chromium', function () {
  this.timeout(60_000);
  let pages: http.Server;
  let port: number;
  let world: PacientesWorld;
  let browser: Browser;

  before(async () => {
    // One page server, two origins: http://127.0.0.1:port is allowed, http://localhost:port is not.
    pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    port = (pages.address() as AddressInfo).port;
    world = await startPacientesWorld({ env: { CORS_ORIGINS: `http://127.0.0.1:${port}` } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await world?.close();
    await new Promise((resolve) => pages?.close(resolve));
  });

  const callFrom = async (origin: string): Promise<{ status?: number; link?: string | null; error?: string }> => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(
        async ({ url, token }) => {
          try {
            const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
            return { status: res.status, link: res.headers.get('link') };
          } catch (err) {
            return { error: String(err) };
          }
        },
        { url: `${world.server.url}/pacientes?limit=1`, token: world.a },
      );
    } finally {
      await page.close();
    }
  };

  it('lets the allowed origin read the answer and its exposed Link header, and refuses another origin', async () => {
    await world.register(world.a);
    await world.register(world.a);
    const allowed = await callFrom(`http://127.0.0.1:${port}`);
    assert.equal(allowed.status, 200, JSON.stringify(allowed));
    assert.match(allowed.link ?? '', /^<\/pacientes\?limit=1&cursor=[^>]+>; rel="next"$/);
    const refused = await callFrom(`http://localhost:${port}`);
    assert.equal(refused.status, undefined);
    assert.match(refused.error ?? '', /Failed to fetch/);
  });
});
