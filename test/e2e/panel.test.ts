// The page people look at, end to end in headless Chromium against the real service: a nurse signs in through the page,
// sees the patient census and today's board equal to the API's data, and sees `arrived` change without a reload when a
// session's arrival is registered over the API. The screenshot is kept at test-output/panel.png.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, signInThroughPage } from '../support/browser.js';
import { startDialisisWorld, expectStatus, type DialisisWorld, type Json } from '../http/dialisisWorld.js';
import { sessionSteps } from '../http/dialisisSessionSteps.js';

const SCREENSHOT = path.resolve('test-output', 'panel.png');
const WIDGETS = ['patient-census', 'today-board'] as const;

describe('The /panel page end to end (census and board as the API says, live arrival)', function () {
  this.timeout(120_000);
  let w: DialisisWorld;
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
    w = await startDialisisWorld();
  });
  after(async () => {
    await browser?.close();
    await w?.close();
  });

  /** The numbers the page shows for a widget, by key. */
  const shown = (page: Page, widgetId: string): Promise<Record<string, string>> =>
    page
      .locator(`.value[data-widget="${widgetId}"]`)
      .evaluateAll((nodes) => Object.fromEntries(nodes.map((n) => [n.getAttribute('data-key'), n.textContent])));

  /** The API's numbers for the dashboard panel of a widget (its params), by key. */
  async function fromApi(widgetId: string): Promise<Record<string, string>> {
    const dashboard = expectStatus(await w.call(w.nurse.token, 'GET', '/widgets/tableros/mio'), 200).body;
    const panel = (dashboard.panels as Json[]).find((p) => p.widgetId === widgetId);
    assert.ok(panel, `the nurse's dashboard has a ${widgetId} panel`);
    const query = new URLSearchParams(
      Object.entries(panel.params as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const answer = expectStatus(await w.call(w.nurse.token, 'GET', `/widgets/${widgetId}/datos?${query.toString()}`), 200).body;
    return Object.fromEntries((answer.data.counts as Json[]).map((c) => [c.key as string, String(c.value)]));
  }

  const sameNumbers = (a: Record<string, string>, b: Record<string, string>): boolean =>
    JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

  /** Waits (a few seconds at most) until the page shows what the API answers; returns it. */
  async function matchesApi(page: Page, widgetId: string): Promise<Record<string, string>> {
    let last: [Record<string, string>, Record<string, string>] = [{}, {}];
    for (let attempt = 0; attempt < 50; attempt++) {
      const [api, page_] = [await fromApi(widgetId), await shown(page, widgetId)];
      if (Object.keys(api).length > 0 && sameNumbers(api, page_)) return api;
      last = [api, page_];
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(last[1], last[0], `the page's ${widgetId} equals GET /widgets/${widgetId}/datos`);
    return last[0];
  }

  it('signs a nurse in, shows the census and the board as the API does, and the arrival live', async () => {
    const steps = sessionSteps(w);
    const patientId = await steps.prescribedPatient();
    const sessionId = await steps.extraSession(patientId);

    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    page.setDefaultTimeout(15_000);
    const violations: string[] = [];
    page.on('console', (m) => /Content.Security.Policy|Refused to/i.test(m.text()) && violations.push(m.text()));
    await signInThroughPage(page, w.server, w.nurse.account);
    for (const widgetId of WIDGETS)
      await page
        .locator(`.value[data-widget="${widgetId}"]`)
        .first()
        .waitFor()
        .catch(async (err: Error) => {
          throw new Error(`no ${widgetId} numbers on the page (it says: ${await page.locator('#status').textContent()}): ${err.message}`);
        });

    await matchesApi(page, 'patient-census');
    const board = await matchesApi(page, 'today-board');
    assert.ok(Number(board.scheduled) >= 1, "today's session is on the board");
    const arrived = Number(board.arrived);
    await page.evaluate("window.marker = 'same page'");

    expectStatus(await steps.post(w.nurse.token, `${steps.sessionPath(sessionId)}/llegada`), 200);
    await page.locator(`.value[data-widget="today-board"][data-key="arrived"]:text-is("${arrived + 1}")`).waitFor();
    assert.equal(await page.evaluate('window.marker'), 'same page', 'updated without a reload');
    assert.equal((await matchesApi(page, 'today-board')).arrived, String(arrived + 1));
    assert.deepEqual(violations, []);

    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.log(`      screenshot: ${SCREENSHOT}`);
    await page.close();
  });
});
