// Clients generated from the contract compile under `tsc --strict`: openapi-typescript's types and orval's fetch
// client (configured here, programmatically, to write into a temp dir), with a small usage file calling one operation
// so the generated types are exercised, not only declared.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from 'orval';
import { registeredGroups } from '../../src/http/groups.js';
import { buildOpenApiDocument } from '../../src/http/openapi.js';

const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

function node(entry: string, args: string[], cwd: string): string {
  const out = spawnSync(process.execPath, [repo(entry), ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(out.status, 0, `${entry} ${args.join(' ')}\n${out.stdout}\n${out.stderr}`);
  return out.stdout;
}

// Lists a patient page through both clients: the orval call, and the openapi-typescript types of the same answer.
const USAGE = `import type { components, paths } from './types';
import { getPacientes } from './client';

type PatientPage = paths['/pacientes']['get']['responses']['200']['content']['application/json'];

export async function firstPatientName(): Promise<string | undefined> {
  const answer = await getPacientes({ limit: 10, status: 'active' });
  if (answer.status !== 200) return undefined;
  const page: PatientPage = answer.data;
  const first: PatientPage['items'][number] | undefined = page.items[0];
  const status: components['schemas']['PatientViewStatus'] | undefined = first?.status;
  return first ? \`\${first.givenNames} \${first.familyNames} (\${status})\` : undefined;
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    lib: ['es2022', 'dom'],
    types: [],
  },
  files: ['types.ts', 'client.ts', 'usage.ts'],
};

describe('OpenAPI document: generated clients', function () {
  this.timeout(300_000); // two CLIs on a 600 KB document; a loaded machine takes its time
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-clients-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(buildOpenApiDocument(registeredGroups())));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an openapi-typescript types file and an orval fetch client compile with tsc --strict', async () => {
    node('node_modules/openapi-typescript/bin/cli.js', ['openapi.json', '--output', 'types.ts'], dir);
    await generate({
      input: { target: join(dir, 'openapi.json') },
      output: { target: join(dir, 'client.ts'), client: 'fetch', mode: 'single', prettier: false },
    });
    const client = readFileSync(join(dir, 'client.ts'), 'utf8');
    assert.match(client, /export const getPacientes = /);
    writeFileSync(join(dir, 'usage.ts'), USAGE);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    node('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.json'], dir);
  });
});
