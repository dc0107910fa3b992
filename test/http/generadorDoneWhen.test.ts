// Issue 26's "done when", in one walk over real HTTP: a company defines "Vacunación hepatitis B", publishes it, records
// doses for two patients, lists them by patient, amends one with If-Match, reads it as it was before the amendment, adds
// a required field through a new major version with a default for older records, and a client generated from its own
// OpenAPI document (openapi-typescript) compiles strict and creates a dose against the running service; another
// company gets 404 for all of it.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VACUNACION_CODE, vacunacionHbv } from '../commands/generador/vacunacionHbv.js';
import { expectStatus, nextDocument, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';

const CODE = VACUNACION_CODE;
const BASE = `/generador/m/${CODE}`;
const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

// The module, as a company sends it (the fixture the Generador's own tests share).
const MODULE = { code: CODE, ...vacunacionHbv };

const patientBody = (): Json => ({
  documentType: 'DNI',
  documentNumber: nextDocument(),
  givenNames: 'Rosa Elena',
  familyNames: 'Mamani Flores',
  sex: 'female',
  birthDate: '1958-03-14',
  admissionDate: '2024-06-01',
  etiology: 'hypertensive nephropathy',
  dryWeightKg: 61.5,
});

// What an integrator writes against the generated types: tsc checks the body, the answer and the query names.
const PROGRAM = `import type { components, paths } from './types';

type Create = paths['${BASE}']['post']['requestBody']['content']['application/json'];
type Created = components['schemas']['VacunacionHbvRecord'];

export async function recordDose(baseUrl: string, token: string, patientId: string): Promise<Created> {
  const body: Create = {
    patientId,
    values: { doseNumber: 3, administeredOn: '2026-05-02', lot: 'GEN-3', antiHbsTitre: 25, schedule: 'dialysis', site: 'deltoid' },
    reason: 'Third dose, recorded by the generated client',
  };
  const answer = await fetch(baseUrl + '${BASE}', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'idempotency-key': 'client-' + patientId },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(answer.status + ': ' + (await answer.text()));
  const created = (await answer.json()) as Created;
  const site: 'deltoid' | 'thigh' | undefined = created.values.site; // typed by the contract: a choice
  if (site !== 'deltoid') throw new Error('the site did not come back');
  return created;
}
`;

function node(args: string[], cwd: string) {
  return spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
}

describe('Generador: the done-when of issue 26 over HTTP', function () {
  this.timeout(300_000); // the generator and tsc on a loaded machine
  let w: StaffWorld;
  let dir: string;
  before(async () => {
    w = await startStaffWorld();
    dir = mkdtempSync(join(tmpdir(), 'generador-client-'));
  });
  after(async () => {
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('defines, publishes, records, lists, amends, reads asOf, versions, and a generated client creates a dose; B sees none of it', async () => {
    const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
      w.call(w.a, method, path, { json, headers });
    expectStatus(await call('POST', '/generador/modulos', MODULE), 201);
    expectStatus(await call('POST', `/generador/modulos/${CODE}/publicacion`, {}), 200);

    const patients: string[] = [];
    for (let i = 0; i < 2; i++) patients.push(String(expectStatus(await call('POST', '/pacientes', patientBody()), 201).body.id));
    const dose = (patientId: string, doseNumber: number, administeredOn: string) => ({
      patientId,
      values: { doseNumber, administeredOn, lot: `L-${doseNumber}`, antiHbsTitre: 4.5 * doseNumber, schedule: 'dialysis' },
    });
    const first = expectStatus(await call('POST', BASE, dose(patients[0]!, 1, '2026-01-10'), { 'idempotency-key': unique('k') }), 201);
    expectStatus(await call('POST', BASE, dose(patients[0]!, 2, '2026-02-10')), 201);
    expectStatus(await call('POST', BASE, dose(patients[1]!, 1, '2026-01-12')), 201);
    const id = String(first.body.id);
    assert.equal(first.headers.get('location'), `${BASE}/${id}`);

    const listed = expectStatus(await call('GET', `${BASE}?patientId=${patients[0]}&sort=administeredOn&order=asc`), 200).body;
    const items = listed.items as Json[];
    assert.deepEqual(
      items.map((r) => [r.patientId, (r.values as Json).doseNumber]),
      [
        [patients[0], 1],
        [patients[0], 2],
      ],
    );

    const before = expectStatus(await call('GET', `${BASE}/${id}`), 200);
    const etag = before.headers.get('etag')!;
    const instantBefore = String(before.body.updatedAt);
    w.server.clock.advance(60_000); // the amendment comes a minute after the record was written
    const patch = { values: { antiHbsTitre: 15.2 }, reason: 'Titre re-read from the lab report' };
    expectStatus(await call('PATCH', `${BASE}/${id}`, patch), 428);
    const amended = expectStatus(await call('PATCH', `${BASE}/${id}`, patch, { 'if-match': etag }), 200);
    assert.equal((amended.body.values as Json).antiHbsTitre, 15.2);
    expectStatus(await call('PATCH', `${BASE}/${id}`, patch, { 'if-match': etag }), 412);
    const asOf = expectStatus(await call('GET', `${BASE}/${id}?asOf=${encodeURIComponent(instantBefore)}`), 200).body;
    assert.equal((asOf.values as Json).antiHbsTitre, 4.5);

    // A required field is a breaking change: a new major version whose mapping gives older records a default.
    const module = expectStatus(await call('GET', `/generador/modulos/${CODE}`), 200);
    const site = { name: 'site', label: 'Sitio de aplicación', type: 'choice', required: true, choices: ['deltoid', 'thigh'] };
    const { code: _code, ...definition } = MODULE;
    const v2 = { ...definition, fields: [...MODULE.fields, site], upcast: [{ op: 'default', field: 'site', value: 'deltoid' }] };
    const versioned = expectStatus(
      await call(
        'POST',
        `/generador/modulos/${CODE}/versiones`,
        { ...v2, reason: 'The site is now recorded' },
        {
          'if-match': module.headers.get('etag')!,
        },
      ),
      200,
    );
    assert.deepEqual(versioned.body.version, { major: 2, minor: 0 });
    const old = expectStatus(await call('GET', `${BASE}/${id}`), 200).body;
    assert.equal((old.values as Json).site, 'deltoid');
    assert.equal((old.version as Json).major, 1); // kept as written, read through the mapping

    // The company's own contract, as an integrator takes it: generated, compiled strict, run against the service.
    const contract = expectStatus(await call('GET', '/generador/openapi.json'), 200).body;
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(contract));
    const gen = node([repo('node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '--output', 'types.ts'], dir);
    assert.equal(gen.status, 0, gen.stderr);
    writeFileSync(join(dir, 'program.ts'), PROGRAM);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const compilerOptions = {
      strict: true,
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2022', 'dom'],
      types: [],
    };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, outDir: 'out' }, files: ['types.ts', 'program.ts'] }),
    );
    const tsc = node([repo('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
    assert.equal(tsc.status, 0, `${tsc.stdout}\n${tsc.stderr}`);
    // Run asynchronously: the service under test answers from this very process.
    const run = await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import('./out/program.js'); console.log(JSON.stringify(await m.recordDose(...process.argv.slice(1))));`,
        w.server.url,
        w.a,
        patients[1]!,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    const created = JSON.parse(run.stdout) as Json;
    const stored = expectStatus(await call('GET', `${BASE}/${String(created.id)}`), 200).body;
    assert.deepEqual([stored.patientId, (stored.values as Json).doseNumber, (stored.version as Json).major], [patients[1], 3, 2]);

    // Another company: the module, its records, its history, its transitions and its contract do not exist for it.
    const b = (method: string, path: string, json?: unknown) => w.call(w.b, method, path, { json });
    for (const [method, path, json] of [
      ['GET', `/generador/modulos/${CODE}`],
      ['GET', `/generador/modulos/${CODE}/historial`],
      ['GET', BASE],
      ['POST', BASE, dose(patients[0]!, 4, '2026-04-01')],
      ['GET', `${BASE}/${id}`],
      ['GET', `${BASE}/${id}/historial`],
      ['PATCH', `${BASE}/${id}`, patch],
      ['POST', `${BASE}/${id}/archivo`, { reason: 'not ours' }],
    ] as [string, string, unknown?][])
      expectStatus(await b(method, path, json), 404);
    const theirs = expectStatus(await b('GET', '/generador/openapi.json'), 200).body;
    assert.deepEqual(Object.keys(theirs.paths as Json), []);
    assert.ok(!JSON.stringify(theirs).includes('VacunacionHbv'));
  });
});
