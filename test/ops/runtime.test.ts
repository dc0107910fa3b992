// The suite runs on the Node the project brings (the `node` devDependency: the current LTS), not on whatever Node ran npm,
// and the native modules load on it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

describe('the runtime', () => {
  it('is the Node LTS of the node devDependency, and better-sqlite3 opens a database on it', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>;
      engines: { node: string };
    };
    const brought = pkg.devDependencies.node!;
    assert.equal(process.versions.node, brought, `npm scripts run on node_modules/.bin/node (${brought}), not ${process.version}`);
    assert.equal(pkg.engines.node, '>=22');
    const Database = require('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
  });
});
