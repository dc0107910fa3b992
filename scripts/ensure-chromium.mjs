#!/usr/bin/env node
// Makes sure a Chromium exists for the browser test of /panel (test/e2e): CHROMIUM_PATH, else Debian's `chromium`.
// Missing and running as root with apt-get (CI: a fresh Debian machine), it installs the package (and a font, so the
// screenshot has text); otherwise it says how.
// It never fails `npm test` itself: the browser test fails, naming the missing browser.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

const executable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const found = () => [process.env.CHROMIUM_PATH, ...CANDIDATES].find((file) => file && executable(file));

if (found()) process.exit(0);

const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (root && executable('/usr/bin/apt-get')) {
  process.stdout.write('Installing Debian chromium for the browser test (apt-get)...\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-dejavu-core'], { stdio: 'inherit', env });
  } catch (err) {
    process.stderr.write(`apt-get could not install chromium: ${err.message}\n`);
  }
}
if (!found())
  process.stderr.write(
    'No Chromium for the browser test of /panel: install it (`sudo apt-get install -y --no-install-recommends chromium` ' +
      'on Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium or Chrome executable. test/e2e/panel.test.ts fails without it.\n',
  );
