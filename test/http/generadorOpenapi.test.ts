// A company's OpenAPI document for its modules: named schemas and stable operationIds per module, a retired module's
// reads only; it passes Spectral and Redocly as the service's does, and a client generated from it (openapi-typescript)
// compiles with tsc --strict together with a program that records a hepatitis B dose.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModuleOpenApi, type ContractModule } from '../../src/http/routes/generador/moduleOpenapi.js';
import { VACUNACION_CODE, vacunacionHbv } from '../commands/generador/vacunacionHbv.js';

const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

function node(entry: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [repo(entry), ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

const vacunacion: ContractModule = {
  code: VACUNACION_CODE,
  status: 'published',
  version: { major: 1, minor: 0 },
  definition: vacunacionHbv,
};
const water: ContractModule = {
  code: 'agua-tratada',
  status: 'retired',
  version: { major: 2, minor: 1 },
  definition: {
    name: 'Water treatment log',
    patientLinked: false,
    fields: [
      { name: 'takenAt', label: 'Taken at', type: 'date-time', required: true },
      { name: 'chlorine', label: 'Total chlorine', type: 'number', unit: 'mg/L', minimum: 0 },
      { name: 'checks', label: 'Checks', type: 'multi-choice', choices: ['softener', 'carbon', 'ro'] },
      { name: 'technician', label: 'Technician', type: 'reference', refersTo: 'staff' },
      { name: 'ok', label: 'Within limits', type: 'boolean' },
    ],
    filterFields: ['ok', 'technician'],
    sortFields: ['takenAt'],
  },
};

// Records a dose with plain fetch typed by the generated `paths`: body, answer and the Location are checked by tsc.
const PROGRAM = `import type { components, paths } from './types';

type Create = paths['/generador/m/vacunacion-hbv']['post']['requestBody']['content']['application/json'];
type Created = paths['/generador/m/vacunacion-hbv']['post']['responses']['201']['content']['application/json'];
type Page = paths['/generador/m/vacunacion-hbv']['get']['responses']['200']['content']['application/json'];
type Query = NonNullable<paths['/generador/m/vacunacion-hbv']['get']['parameters']['query']>;

export async function recordDose(baseUrl: string, token: string, patientId: string): Promise<components['schemas']['VacunacionHbvRecord']> {
  const body: Create = {
    patientId,
    values: { doseNumber: 1, administeredOn: '2026-03-01', lot: 'AB-12', antiHbsTitre: 12.5, schedule: 'dialysis' },
    reason: 'First dose',
  };
  const answer = await fetch(\`\${baseUrl}/generador/m/vacunacion-hbv\`, {
    method: 'POST',
    headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json', 'idempotency-key': \`dose-\${patientId}-1\` },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(\`\${answer.status}: \${await answer.text()}\`);
  const created = (await answer.json()) as Created;
  const dose: number = created.values.doseNumber ?? 0;
  const schedule: 'standard' | 'accelerated' | 'dialysis' | undefined = created.values.schedule;
  const query: Query = { patientId, schedule: 'dialysis', sort: 'administeredOn', order: 'desc', limit: 10 };
  const list = await fetch(\`\${baseUrl}/generador/m/vacunacion-hbv?\${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}\`, {
    headers: { authorization: \`Bearer \${token}\` },
  });
  const page = (await list.json()) as Page;
  return page.items.find((r) => r.id === created.id && dose > 0 && schedule !== undefined) ?? created;
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
  files: ['types.ts', 'program.ts'],
};

describe('Generador: the company OpenAPI document of its modules', function () {
  this.timeout(300_000); // CLIs on a loaded machine
  const doc = buildModuleOpenApi([water, vacunacion], { companyName: 'Clínica Norte' }) as {
    info: { title: string };
    paths: Record<string, Record<string, { operationId: string }>>;
    components: { schemas: Record<string, unknown> };
  };
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'generador-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names each module schema and operation after its code; a retired module has its reads only', () => {
    assert.match(doc.info.title, /Clínica Norte/);
    for (const s of ['Record', 'Values', 'Create', 'Patch', 'Page']) assert.ok(`VacunacionHbv${s}` in doc.components.schemas, s);
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([m, op]) => `${m} ${path} ${op.operationId}`),
    );
    assert.deepEqual(ops.sort(), [
      'get /generador/m/agua-tratada listAguaTratada',
      'get /generador/m/agua-tratada/{id} getAguaTratada',
      'get /generador/m/agua-tratada/{id}/historial getAguaTratadaHistory',
      'get /generador/m/vacunacion-hbv listVacunacionHbv',
      'get /generador/m/vacunacion-hbv/{id} getVacunacionHbv',
      'get /generador/m/vacunacion-hbv/{id}/historial getVacunacionHbvHistory',
      'patch /generador/m/vacunacion-hbv/{id} patchVacunacionHbv',
      'post /generador/m/vacunacion-hbv createVacunacionHbv',
      'post /generador/m/vacunacion-hbv/{id}/archivo archiveVacunacionHbv',
      'post /generador/m/vacunacion-hbv/{id}/transiciones/{transition} transitionVacunacionHbv',
    ]);
    const titre = (doc.components.schemas.VacunacionHbvValues as { properties: Record<string, { description: string }> }).properties
      .antiHbsTitre;
    assert.match(titre!.description, /mUI\/mL/);
  });

  it('passes Spectral (spectral:oas recommended) and Redocly (recommended) as the service document does', () => {
    const spectral = node(
      'node_modules/@stoplight/spectral-cli/dist/index.js',
      ['lint', 'openapi.json', '--ruleset', repo('.spectral.yaml'), '--format', 'json', '--fail-severity', 'hint', '--quiet'],
      dir,
    );
    const found = (JSON.parse(spectral.stdout || '[]') as { code: string; path: string[]; message: string }[]).map(
      (r) => `${r.code} at ${r.path.join('.')}: ${r.message}`,
    );
    assert.deepEqual(found, []);
    const redocly = node(
      'node_modules/@redocly/cli/bin/cli.js',
      ['lint', 'openapi.json', '--config', repo('redocly.yaml'), '--format', 'json'],
      dir,
    );
    const report = JSON.parse(redocly.stdout) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    assert.deepEqual(
      report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`),
      [],
    );
  });

  it('a client generated with openapi-typescript compiles with tsc --strict with a program that records a dose', () => {
    const gen = node('node_modules/openapi-typescript/bin/cli.js', ['openapi.json', '--output', 'types.ts'], dir);
    assert.equal(gen.status, 0, gen.stderr);
    writeFileSync(join(dir, 'program.ts'), PROGRAM);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = node('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.json'], dir);
    assert.equal(tsc.status, 0, `${tsc.stdout}\n${tsc.stderr}`);
  });
});
