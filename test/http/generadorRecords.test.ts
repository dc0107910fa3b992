// Generador records end to end over real HTTP (/generador/m/{code}): doses of "Vacunación hepatitis B" for two patients,
// Idempotency-Key, field-level 422s, lists filtered and sorted with cursors, If-Match, asOf, history, a signing
// transition with a step-up code, archive, a new major with a default, a retired module, 403 and another company's 404.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startStaffWorld, unique, type Answer, type Json, type StaffWorld } from './staffWorld.js';
import { registration } from './pacientesWorld.js';

const FIELDS = [
  { name: 'doseNumber', label: 'Número de dosis', type: 'integer', required: true, minimum: 1, maximum: 10 },
  { name: 'administeredOn', label: 'Fecha de aplicación', type: 'date', required: true },
  { name: 'lot', label: 'Lote', type: 'text', maxLength: 40 },
  { name: 'antiHbsTitre', label: 'Título anti-HBs', type: 'number', unit: 'mUI/mL', minimum: 0 },
  { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['0-1-6', '0-1-2-12', 'rapid'] },
];
const definition = (fields: Json[] = FIELDS): Json => ({
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields,
  filterFields: ['schedule', 'doseNumber'],
  sortFields: ['administeredOn', 'doseNumber'],
  states: {
    initial: 'recorded',
    states: [
      { name: 'recorded', label: 'Registrada' },
      { name: 'checked', label: 'Revisada' },
      { name: 'verified', label: 'Verificada' },
    ],
    transitions: [
      { name: 'check', label: 'Revisar', from: ['recorded'], to: 'checked' },
      { name: 'verify', label: 'Verificar', from: ['checked'], to: 'verified', signs: true },
    ],
  },
});

describe('Generador records over HTTP (/generador/m/{code})', () => {
  let world: StaffWorld;
  let patients: string[];
  before(async () => {
    world = await startStaffWorld();
    patients = [];
    for (let i = 0; i < 2; i++)
      patients.push(expectStatus(await world.call(world.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string);
  });
  after(async () => world?.close());

  const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}, token = world.a): Promise<Answer> =>
    world.call(token, method, path, { ...(json === undefined ? {} : { json }), headers });
  /** A published module of company A: its records' path. */
  async function published(): Promise<{ code: string; base: string }> {
    const code = unique('hbv-');
    expectStatus(await call('POST', '/generador/modulos', { code, ...definition() }), 201);
    expectStatus(await call('POST', `/generador/modulos/${code}/publicacion`, {}), 200);
    return { code, base: `/generador/m/${code}` };
  }
  const dose = (patientId: string, values: Json, headers: Record<string, string> = {}) => ({ json: { patientId, values }, headers });
  const create = async (base: string, patientId: string, values: Json, headers: Record<string, string> = {}) => {
    const { json } = dose(patientId, values, headers);
    return call('POST', base, json, headers);
  };

  it('records doses for two patients, replays a retried create, names invalid values, lists, amends and reads asOf', async () => {
    const { base } = await published();
    const key = { 'idempotency-key': unique('dose-') };
    const first = expectStatus(
      await create(base, patients[0]!, { doseNumber: 1, administeredOn: '2026-01-05', schedule: '0-1-6' }, key),
      201,
    );
    const id = first.body.id as string;
    assert.equal(first.headers.get('location'), `${base}/${id}`);
    assert.equal(first.headers.get('etag'), 'W/"0"');
    assert.ok(first.headers.get('x-event-position'));
    assert.equal(first.body.patientId, patients[0]);
    assert.equal(first.body.state, 'recorded');
    assert.deepEqual(first.body.version, { major: 1, minor: 0 });
    const again = expectStatus(
      await create(base, patients[0]!, { doseNumber: 1, administeredOn: '2026-01-05', schedule: '0-1-6' }, key),
      201,
    );
    assert.equal(again.body.id, id);
    expectStatus(await create(base, patients[0]!, { doseNumber: 2, administeredOn: '2026-02-05', schedule: '0-1-6', lot: 'L-2' }), 201);
    expectStatus(await create(base, patients[1]!, { doseNumber: 1, administeredOn: '2026-01-20', schedule: 'rapid' }), 201);

    const bad = await create(base, patients[1]!, { doseNumber: 11, administeredOn: 'yesterday', schedule: 'weekly' });
    assert.deepEqual(pointers(expectStatus(bad, 422)), ['/body/values/administeredOn', '/body/values/doseNumber', '/body/values/schedule']);
    const noPatient = await call('POST', base, { values: { doseNumber: 1, administeredOn: '2026-01-05' } });
    assert.deepEqual(pointers(expectStatus(noPatient, 422)), ['/body/patientId']);

    const items = async (query: string) =>
      (expectStatus(await call('GET', `${base}?${query}`), 200).body.items as Json[]).map((r) => r.values);
    assert.deepEqual(
      (await items(`patientId=${patients[0]}&sort=doseNumber&order=asc`)).map((v) => v.doseNumber),
      [1, 2],
    );
    assert.deepEqual(
      (await items('schedule=rapid')).map((v) => v.administeredOn),
      ['2026-01-20'],
    );
    assert.deepEqual(
      (await items('doseNumber=1&sort=administeredOn&order=desc')).map((v) => v.administeredOn),
      ['2026-01-20', '2026-01-05'],
    );
    assert.deepEqual(pointers(expectStatus(await call('GET', `${base}?lot=L-2`), 422)), ['/query/lot']);
    const page1 = expectStatus(await call('GET', `${base}?limit=2&sort=administeredOn&order=asc`), 200).body;
    const page2 = expectStatus(await call('GET', `${base}?limit=2&sort=administeredOn&order=asc&cursor=${page1.nextCursor}`), 200).body;
    assert.deepEqual(
      [...(page1.items as Json[]), ...(page2.items as Json[])].map((r) => (r.values as Json).administeredOn),
      ['2026-01-05', '2026-01-20', '2026-02-05'],
    );

    const record = `${base}/${id}`;
    const before = expectStatus(await call('GET', record), 200);
    assert.equal(before.headers.get('etag'), 'W/"0"');
    world.server.clock.advance(1000); // the amendment comes a second later than the record
    const amend = { values: { antiHbsTitre: 12.5, schedule: null }, reason: 'titre measured' };
    expectStatus(await call('PATCH', record, amend), 428);
    expectStatus(await call('PATCH', record, amend, { 'if-match': 'W/"7"' }), 412);
    const bounds = await call('PATCH', record, { values: { antiHbsTitre: -1 }, reason: 'x' }, { 'if-match': 'W/"0"' });
    // A nullable field answers each branch of its anyOf under the same pointer.
    assert.deepEqual([...new Set(pointers(expectStatus(bounds, 422)))], ['/body/values/antiHbsTitre']);
    const amended = expectStatus(await call('PATCH', record, amend, { 'if-match': 'W/"0"' }), 200);
    assert.equal(amended.headers.get('etag'), 'W/"1"');
    assert.deepEqual(amended.body.values, { doseNumber: 1, administeredOn: '2026-01-05', antiHbsTitre: 12.5 });
    const asOf = expectStatus(await call('GET', `${record}?asOf=${encodeURIComponent(before.body.updatedAt as string)}`), 200);
    assert.equal(asOf.headers.get('etag'), 'W/"0"');
    assert.equal((asOf.body.values as Json).schedule, '0-1-6');
    assert.equal((expectStatus(await call('GET', `${record}?version=1`), 200).body.values as Json).antiHbsTitre, 12.5);
    const history = expectStatus(await call('GET', `${record}/historial`), 200).body.items as Json[];
    assert.deepEqual(
      history.map((e) => [e.type, e.reason]),
      [
        ['ModuleRecordCreated', null],
        ['ModuleRecordAmended', 'titre measured'],
      ],
    );
  });

  it('moves a record through a transition and a signing one (step-up code), archives it, then refuses writes', async () => {
    const { base } = await published();
    const created = expectStatus(await create(base, patients[0]!, { doseNumber: 1, administeredOn: '2026-03-01' }), 201);
    const record = `${base}/${created.body.id as string}`;
    expectStatus(await call('POST', `${record}/transiciones/verify`, { code: '000000' }), 409);
    const checked = expectStatus(await call('POST', `${record}/transiciones/check`, { reason: 'ok' }, { 'if-match': 'W/"0"' }), 200);
    assert.equal(checked.body.state, 'checked');
    assert.deepEqual(pointers(expectStatus(await call('POST', `${record}/transiciones/verify`, {}), 422)), ['/body/code']);
    const wrong = await call('POST', `${record}/transiciones/verify`, { code: '000000' }, { 'if-match': 'W/"1"' });
    assert.deepEqual(pointers(expectStatus(wrong, 422)), ['/body/code']);
    assert.equal(expectStatus(await call('GET', record), 200).body.state, 'checked', 'a refused code changes nothing');
    world.server.clock.advance(31_000);
    const code = await world.server.totpCode(world.server.admin.totpSecret);
    const signed = expectStatus(await call('POST', `${record}/transiciones/verify`, { code }, { 'if-match': 'W/"1"' }), 200);
    assert.equal(signed.body.state, 'verified');
    assert.ok(signed.body.signedAt);
    expectStatus(await call('POST', `${record}/archivo`, { reason: 'duplicate' }, { 'if-match': 'W/"0"' }), 412);
    const archived = expectStatus(await call('POST', `${record}/archivo`, { reason: 'duplicate' }), 200);
    assert.equal(archived.body.archived, true);
    const late = await call('PATCH', record, { values: { lot: 'L' }, reason: 'late' }, { 'if-match': 'W/"3"' });
    expectStatus(late, 409);
    const listed = expectStatus(await call('GET', `${base}?archived=true`), 200).body.items as Json[];
    assert.deepEqual(
      listed.map((r) => r.id),
      [created.body.id],
    );
  });

  it('reads an old record through a new major (default for a new required field); a retired module reads but refuses writes', async () => {
    const { code, base } = await published();
    const old = expectStatus(await create(base, patients[1]!, { doseNumber: 1, administeredOn: '2026-04-01' }), 201);
    const site = { name: 'site', label: 'Sitio', type: 'choice', choices: ['deltoid', 'thigh'], required: true };
    const v2 = { ...definition([...FIELDS, site]), upcast: [{ op: 'default', field: 'site', value: 'deltoid' }], reason: 'site' };
    expectStatus(await call('POST', `/generador/modulos/${code}/versiones`, v2, { 'if-match': 'W/"1"' }), 200);
    const read = expectStatus(await call('GET', `${base}/${old.body.id as string}`), 200);
    assert.equal((read.body.values as Json).site, 'deltoid');
    const missing = await create(base, patients[1]!, { doseNumber: 2, administeredOn: '2026-05-01' });
    assert.deepEqual(pointers(expectStatus(missing, 422)), ['/body/values/site']);
    expectStatus(await create(base, patients[1]!, { doseNumber: 2, administeredOn: '2026-05-01', site: 'thigh' }), 201);

    expectStatus(await call('POST', `/generador/modulos/${code}/retiro`, { reason: 'campaign over' }), 200);
    expectStatus(await call('GET', `${base}/${old.body.id as string}`), 200);
    assert.equal((expectStatus(await call('GET', `${base}?patientId=${patients[1]}`), 200).body.items as Json[]).length, 2);
    expectStatus(await create(base, patients[1]!, { doseNumber: 3, administeredOn: '2026-06-01', site: 'thigh' }), 409, 'module-retired');
    const amend = await call('PATCH', `${base}/${old.body.id as string}`, { values: { lot: 'L' }, reason: 'x' }, { 'if-match': 'W/"0"' });
    expectStatus(amend, 409, 'module-retired');
  });

  it("answers 404 to another company and for a draft module, 403 without the module's permission", async () => {
    const { code, base } = await published();
    const created = expectStatus(await create(base, patients[0]!, { doseNumber: 1, administeredOn: '2026-01-05' }), 201);
    const record = `${base}/${created.body.id as string}`;
    const b = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
      call(method, path, json, headers, world.b);
    expectStatus(await b('GET', base), 404);
    expectStatus(await b('POST', base, { patientId: patients[0], values: { doseNumber: 1, administeredOn: '2026-01-05' } }), 404);
    expectStatus(await b('GET', record), 404);
    expectStatus(await b('GET', `${record}/historial`), 404);
    expectStatus(await b('PATCH', record, { values: { lot: 'x' }, reason: 'x' }, { 'if-match': 'W/"0"' }), 404);
    expectStatus(await b('POST', `${record}/transiciones/check`, {}), 404);
    expectStatus(await b('POST', `${record}/archivo`, { reason: 'x' }), 404);
    // Company B's own module under the same code does not reach A's records.
    expectStatus(await call('POST', '/generador/modulos', { code, ...definition() }, {}, world.b), 201);
    expectStatus(await b('POST', `/generador/modulos/${code}/publicacion`, {}), 200);
    expectStatus(await b('GET', record), 404);
    assert.deepEqual(expectStatus(await b('GET', base), 200).body.items, []);

    const draft = unique('draft-');
    expectStatus(await call('POST', '/generador/modulos', { code: draft, ...definition() }), 201);
    expectStatus(await call('GET', `/generador/m/${draft}`), 404);
    expectStatus(await call('GET', `/generador/m/${unique('ghost-')}`), 404);

    const reader = await world.memberWith(['pacientes:read']);
    const refused = await call(
      'POST',
      base,
      { patientId: patients[0], values: { doseNumber: 1, administeredOn: '2026-01-05' } },
      {},
      reader.token,
    );
    assert.equal(expectStatus(refused, 403, 'forbidden').body.permission, `mod.${code}:write`);
    expectStatus(await call('GET', record, undefined, {}, reader.token), 403);
  });
  it('audits every read and list of a patient-linked module, naming the patient and the module listed', async () => {
    const { code, base } = await published();
    const from = world.server.services.now().toISOString();
    world.server.clock.advance(60_000);
    const created = expectStatus(await create(base, patients[1]!, { doseNumber: 1, administeredOn: '2026-07-01' }), 201);
    const id = created.body.id as string;
    expectStatus(await call('GET', `${base}/${id}`), 200);
    expectStatus(await call('GET', `${base}/${id}/historial`), 200);
    expectStatus(await call('GET', `${base}?patientId=${patients[1]}`), 200);
    expectStatus(await call('GET', base), 200);
    await world.server.flushAccessAudit();
    const { events, projections } = world.server.services;
    assert.ok(await projections.waitFor(await events.headPosition(), { timeoutMs: 10_000 }));
    world.server.clock.advance(60_000);
    const query = new URLSearchParams({ patientId: patients[1]!, action: 'read', from, to: world.server.services.now().toISOString() });
    const trail = expectStatus(await call('GET', `/sistema/auditoria?${query.toString()}`), 200).body.items as Json[];
    assert.deepEqual(trail.map((e) => [e.recordType, e.recordId, e.route]).reverse(), [
      ['moduleRecord', id, '/generador/m/{code}/{id}'],
      ['moduleRecord', id, '/generador/m/{code}/{id}/historial'],
      ['moduleRecordList', code, '/generador/m/{code}'],
    ]);
    // An auditor asks who listed this module (of many sharing the route template): both lists, the filtered one naming the patient.
    const lists = new URLSearchParams({
      recordType: 'moduleRecordList',
      recordId: code,
      from,
      to: world.server.services.now().toISOString(),
    });
    const listed = expectStatus(await call('GET', `/sistema/auditoria?${lists.toString()}`), 200).body.items as Json[];
    assert.equal(
      listed.reduce((n, e) => n + Number(e.count), 0),
      2,
      'both lists (alike entries merge, counted)',
    );
    assert.ok(listed.every((e) => JSON.stringify(e.patientIds) === JSON.stringify([patients[1]])));
  });
});
