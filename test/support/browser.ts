// Headless Chromium for the browser tests (and signing in through /panel): Debian's `chromium` (or CHROMIUM_PATH) driven by playwright-core. No browser
// found is a failure naming how to install one (scripts/ensure-chromium.mjs installs it in CI), never a skipped test.
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestAccount, TestServer } from './harness.js';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string {
  for (const file of [process.env.CHROMIUM_PATH, ...CANDIDATES]) {
    if (!file) continue;
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // the next candidate
    }
  }
  throw new Error(
    'No Chromium found for the browser test: set CHROMIUM_PATH or install Debian chromium ' +
      '(`apt-get install -y --no-install-recommends chromium`; `node scripts/ensure-chromium.mjs` does it as root).',
  );
}

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });

/** Signs in through the page's forms: e-mail and password, then a fresh authenticator code. */
export async function signInThroughPage(page: Page, server: TestServer, account: TestAccount): Promise<void> {
  await page.goto(`${server.url}/panel`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('6-digit code').waitFor();
  server.nextTotpStep();
  await page.getByLabel('6-digit code').fill(await server.totpCode(account.totpSecret));
  await page.getByRole('button', { name: 'Sign in' }).click();
}
