// The generated contract passes Spectral (spectral:oas recommended, .spectral.yaml) and Redocly (recommended,
// redocly.yaml) with no error and no warning. A test rather than npm scripts: the document exists only in memory, so
// the test writes it to a temp file and runs both CLIs through their node entry points, and `npm test` stays as it is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registeredGroups } from '../../src/http/groups.js';
import { buildOpenApiDocument } from '../../src/http/openapi.js';

const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** Runs a CLI's node entry point; its output (JSON) is parsed by the caller. */
function run(entry: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [repo(entry), ...args], {
    cwd: repo(''),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('OpenAPI document: Spectral and Redocly recommended rulesets', function () {
  this.timeout(300_000); // two CLIs on a 600 KB document; a loaded machine takes its time
  let dir: string;
  let file: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(registeredGroups()), null, 2));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('Spectral (spectral:oas recommended) finds nothing, not even a hint', () => {
    const out = run('node_modules/@stoplight/spectral-cli/dist/index.js', [
      'lint',
      file,
      '--ruleset',
      repo('.spectral.yaml'),
      '--format',
      'json',
      '--fail-severity',
      'hint',
      '--quiet',
    ]);
    const found = (JSON.parse(out.stdout || '[]') as { code: string; path: string[]; message: string }[]).map(
      (r) => `${r.code} at ${r.path.join('.')}: ${r.message}`,
    );
    assert.deepEqual(found, []);
    assert.equal(out.status, 0, out.stderr);
  });

  it('Redocly (recommended) finds no error and no warning', () => {
    const out = run('node_modules/@redocly/cli/bin/cli.js', ['lint', file, '--config', repo('redocly.yaml'), '--format', 'json']);
    const report = JSON.parse(out.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const found = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(found, []);
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    assert.equal(out.status, 0, out.stderr);
  });
});
