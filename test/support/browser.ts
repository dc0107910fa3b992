// Headless Chromium for the browser tests: Debian's `chromium` (or CHROMIUM_PATH) driven by playwright-core. No browser
// found is a failure naming how to install one (scripts/ensure-chromium.mjs installs it in CI), never a skipped test.
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
