// Generador definitions end to end over real HTTP: define "Vacunación hepatitis B", publish it, a compatible change
// (1.1), a breaking one refused naming the conflict, a new major (2.0) with a default for older records, retire;
// field-level 422s, reserved and taken codes, If-Match, permissions and another company's 404.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';
import { registeredGroups } from '../../src/http/groups.js';

const FIELDS = [
  { name: 'doseNumber', label: 'Número de dosis', type: 'integer', required: true, minimum: 1, maximum: 10 },
  { name: 'administeredOn', label: 'Fecha de aplicación', type: 'date', required: true },
  { name: 'lot', label: 'Lote', type: 'text', maxLength: 40 },
  { name: 'antiHbsTitre', label: 'Título anti-HBs', type: 'number', unit: 'mUI/mL', minimum: 0 },
  { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['0-1-6', '0-1-2-12', 'rapid'] },
];
const definition = (overrides: Json = {}): Json => ({
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: FIELDS,
  filterFields: ['schedule', 'doseNumber'],
  sortFields: ['administeredOn', 'doseNumber'],
  states: {
    initial: 'recorded',
    states: [
      { name: 'recorded', label: 'Registrada' },
      { name: 'verified', label: 'Verificada' },
    ],
    transitions: [{ name: 'verify', label: 'Verificar', from: ['recorded'], to: 'verified', signs: true }],
  },
  ...overrides,
});

describe('Generador module definitions over HTTP', () => {
  let world: StaffWorld;
  before(async () => {
    world = await startStaffWorld();
  });
  after(async () => world?.close());

  const define = async (token: string, code: string, overrides: Json = {}) =>
    world.call(token, 'POST', '/generador/modulos', { json: { code, ...definition(overrides) } });

  it('defines, publishes, changes compatibly, refuses a breaking change, adds a major with a default, retires', async () => {
    const code = unique('hepatitis-b-');
    const created = expectStatus(await define(world.a, code), 201);
    assert.equal(created.headers.get('location'), `/generador/modulos/${code}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.equal(created.body.id, code);
    assert.equal(created.body.status, 'draft');
    assert.deepEqual(created.body.version, { major: 1, minor: 0 });
    assert.deepEqual(created.body.permissions, { read: `mod.${code}:read`, write: `mod.${code}:write`, sign: `mod.${code}:sign` });
    assert.equal(created.body.recordsPath, `/generador/m/${code}`);
    const path = `/generador/modulos/${code}`;
    const published = expectStatus(await world.call(world.a, 'POST', `${path}/publicacion`, { json: {} }), 200);
    assert.equal(published.body.status, 'published');
    assert.equal(published.headers.get('etag'), 'W/"1"');

    const notes = { name: 'notes', label: 'Notas', type: 'text' };
    const withNotes = definition({ fields: [...FIELDS, notes] });
    const put = (body: Json, etag?: string) =>
      world.call(world.a, 'PUT', `${path}/definicion`, { json: body, headers: etag ? { 'if-match': etag } : {} });
    expectStatus(await put({ ...withNotes, reason: 'notes' }), 428);
    expectStatus(await put({ ...withNotes, reason: 'notes' }, 'W/"0"'), 412);
    const minor = expectStatus(await put({ ...withNotes, reason: 'notes' }, 'W/"1"'), 200);
    assert.deepEqual(minor.body.version, { major: 1, minor: 1 });

    const breaking = definition({ fields: [...FIELDS.filter((f) => f.name !== 'lot'), notes], reason: 'no lot' });
    const refused = expectStatus(await put(breaking, 'W/"2"'), 409, 'breaking-change');
    assert.deepEqual(refused.body.conflicts, [{ field: 'lot', kind: 'removed', detail: 'the field is removed' }]);

    const site = { name: 'site', label: 'Sitio', type: 'choice', choices: ['deltoid', 'thigh'], required: true };
    const v2 = definition({ fields: [...FIELDS, notes, site] });
    const major = (upcast: Json[], etag = 'W/"2"') =>
      world.call(world.a, 'POST', `${path}/versiones`, { json: { ...v2, upcast, reason: 'site' }, headers: { 'if-match': etag } });
    expectStatus(await major([]), 409, 'uncovered-conflict');
    assert.deepEqual(pointers(expectStatus(await major([{ op: 'default', field: 'site', value: 'arm' }]), 422)), ['/body/upcast/0/value']);
    const two = expectStatus(await major([{ op: 'default', field: 'site', value: 'deltoid' }]), 200);
    assert.deepEqual(two.body.version, { major: 2, minor: 0 });
    assert.deepEqual(
      (two.body.majors as Json[]).map((m) => [m.major, m.minor, m.upcast]),
      [
        [1, 1, []],
        [2, 0, [{ op: 'default', field: 'site', value: 'deltoid' }]],
      ],
    );

    const retired = expectStatus(await world.call(world.a, 'POST', `${path}/retiro`, { json: { reason: 'campaign over' } }), 200);
    assert.equal(retired.body.status, 'retired');
    expectStatus(await put({ ...v2, reason: 'late' }, 'W/"4"'), 409, 'module-retired');
    const read = expectStatus(await world.call(world.a, 'GET', path), 200);
    assert.equal(read.headers.get('etag'), 'W/"4"');
    const old = expectStatus(await world.call(world.a, 'GET', `${path}?version=0`), 200);
    assert.equal(old.body.status, 'draft');
    const history = expectStatus(await world.call(world.a, 'GET', `${path}/historial`), 200);
    assert.equal((history.body.items as Json[]).length, 5);
    const listed = expectStatus(await world.call(world.a, 'GET', '/generador/modulos?status=retired'), 200);
    assert.ok((listed.body.items as Json[]).some((m) => m.code === code));
    // A taken code stays taken, also a retired one.
    expectStatus(await define(world.a, code), 409, 'module-code-taken');
  });

  it('names every broken field in one 422, and refuses a reserved code', async () => {
    const bad = await define(world.a, unique('bad-'), {
      fields: [
        { name: 'doseNumber', label: 'Dosis', type: 'integer', minimum: 5, maximum: 1 },
        { name: 'lot', label: 'Lote', type: 'text', pattern: '(a+)+$' },
        { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['a'], default: 'b' },
      ],
      filterFields: ['nothing'],
      sortFields: [],
      states: undefined,
    });
    assert.deepEqual(pointers(expectStatus(bad, 422, 'validation-failed')), [
      '/body/fields/0/maximum',
      '/body/fields/1/pattern',
      '/body/fields/2/default',
      '/body/filterFields/0',
    ]);
    for (const reserved of ['pacientes', 'generador', 'modulos', 'widgets'])
      assert.deepEqual(pointers(expectStatus(await define(world.a, reserved), 422)), ['/body/code']);
    assert.deepEqual(pointers(expectStatus(await define(world.a, 'Bad Code'), 422)), ['/body/code']);
  });

  it("refuses as a code every built-in route's first path segment (/integraciones too)", async () => {
    const segments = new Set(registeredGroups().flatMap((g) => g.routes.map((r) => r.path.split('/')[1]!)));
    const accepted: string[] = [];
    for (const segment of [...segments].filter((s) => /^[a-z][a-z0-9-]{1,39}$/.test(s)))
      if ((await define(world.a, segment)).status !== 422) accepted.push(segment);
    assert.deepEqual(accepted, []);
  });

  it('refuses a field named like a member every object has (constructor, toString): its records could never be valid', async () => {
    const fields = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'].map((name) => ({ name, label: name, type: 'text' }));
    const answer = await define(world.a, unique('proto-'), { fields, filterFields: [], sortFields: [], states: undefined });
    assert.deepEqual(
      pointers(expectStatus(answer, 422, 'validation-failed')),
      [0, 1, 2, 3].map((i) => `/body/fields/${i}/name`),
    );
  });

  it('replays a retried definition (Idempotency-Key), checks references to another module, and If-Match on publication', async () => {
    const code = unique('retry-');
    const body = { code, ...definition() };
    const headers = { 'idempotency-key': unique('key-') };
    const first = expectStatus(await world.call(world.a, 'POST', '/generador/modulos', { json: body, headers }), 201);
    const again = expectStatus(await world.call(world.a, 'POST', '/generador/modulos', { json: body, headers }), 201);
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    const ref = (module: string) => ({ name: 'vaccine', label: 'Vacunación', type: 'reference', refersTo: 'module', module });
    const linked = await define(world.a, unique('follow-up-'), { fields: [...FIELDS, ref(code)] });
    expectStatus(linked, 201);
    const unknown = await define(world.a, unique('follow-up-'), { fields: [...FIELDS, ref('nowhere')] });
    assert.deepEqual(pointers(expectStatus(unknown, 422)), ['/body/fields/5/module']);
    // Another company's module is not a module of this company.
    const foreign = await define(world.b, unique('follow-up-'), { fields: [...FIELDS, ref(code)] });
    assert.deepEqual(pointers(expectStatus(foreign, 422)), ['/body/fields/5/module']);
    const publish = (etag: string) =>
      world.call(world.a, 'POST', `/generador/modulos/${code}/publicacion`, { json: {}, headers: { 'if-match': etag } });
    expectStatus(await publish('W/"3"'), 412);
    expectStatus(await publish('W/"0"'), 200);
    const twice = expectStatus(await publish('W/"1"'), 200);
    assert.equal(twice.headers.get('etag'), 'W/"1"');
    expectStatus(await world.call(world.a, 'POST', `/generador/modulos/${unique('ghost-')}/publicacion`, { json: {} }), 404);
  });

  it('answers 403 without generador:write and 404 to another company on read, list and history', async () => {
    const code = unique('access-');
    expectStatus(await define(world.a, code), 201);
    const reader = await world.memberWith(['generador:read']);
    expectStatus(await world.call(reader.token, 'GET', `/generador/modulos/${code}`), 200);
    expectStatus(await define(reader.token, unique('nope-')), 403);
    expectStatus(await world.call(reader.token, 'POST', `/generador/modulos/${code}/publicacion`, { json: {} }), 403);
    const none = await world.memberWith(['pacientes:read']);
    expectStatus(await world.call(none.token, 'GET', '/generador/modulos'), 403);
    expectStatus(await world.call(world.b, 'GET', `/generador/modulos/${code}`), 404);
    expectStatus(await world.call(world.b, 'GET', `/generador/modulos/${code}/historial`), 404);
    expectStatus(await world.call(world.b, 'POST', `/generador/modulos/${code}/publicacion`, { json: {} }), 404);
    const listB = expectStatus(await world.call(world.b, 'GET', '/generador/modulos'), 200);
    assert.ok(!(listB.body.items as Json[]).some((m) => m.code === code));
    // Company B may use the same code for its own module.
    expectStatus(await define(world.b, code), 201);
  });
});
