// Module permissions over HTTP (issue 26, H5): roles grant `mod.<code>:read|write|sign` of the company's own modules,
// the admin holds every module's (`mod.*`), the catalogue lists them, and the change feed shows a module's records
// only to those who may read that module.
import assert from 'node:assert/strict';
import { expectStatus, startMonitoresWorld, type MonitoresWorld, type Json } from './monitoresWorld.js';
import { seedModule, seedRecord } from './generadorSeeds.js';
import { clientToken } from './adminWorld.js';

describe('Generador permissions and the change feed over HTTP', () => {
  let w: MonitoresWorld;
  let tenant: string;
  let start: string;

  before(async () => {
    w = await startMonitoresWorld();
    tenant = w.server.admin.companyId;
    start = expectStatus(await w.call(w.a, 'GET', '/sistema/eventos?from=0&limit=1'), 200).body.head as string;
    await seedModule(w.server, tenant, 'vacuna-hb');
    await seedModule(w.server, tenant, 'agua');
  });
  after(async () => w?.close());

  const role = (code: string, permissions: string[], token = w.a) =>
    w.call(token, 'POST', '/roles', { json: { code, name: code, permissions } });

  it('takes a module permission of a module the company defined in a custom role, and the member holds it', async () => {
    const created = expectStatus(await role('vacunadora', ['mod.vacuna-hb:read', 'mod.vacuna-hb:write', 'pacientes:read']), 201);
    assert.deepEqual(created.body.permissions, ['mod.vacuna-hb:read', 'mod.vacuna-hb:write', 'pacientes:read']);
    const changed = await w.call(w.a, 'PUT', '/roles/vacunadora', { json: { name: 'V', permissions: ['mod.agua:sign'] } });
    assert.deepEqual(expectStatus(changed, 200).body.permissions, ['mod.agua:sign']);
  });

  it('refuses a module the company has not defined (or another company has) with the catalogue 422', async () => {
    for (const permission of ['mod.fantasma:read', 'pacientes:fly']) {
      const answer = await role(`r-${permission.length}`, [permission]);
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.ok(JSON.stringify(answer.body).includes(permission));
    }
    const other = await role('ajena', ['mod.vacuna-hb:read'], w.b);
    assert.equal(other.status, 422, "company B has no module 'vacuna-hb'");
  });

  it('gives the admin every module permission (mod.*) and lists the module permissions in the catalogue', async () => {
    const admin = (expectStatus(await w.call(w.a, 'GET', '/roles'), 200).body.items as Json[]).find((r) => r.code === 'admin')!;
    assert.ok((admin.permissions as string[]).includes('mod.*'));
    const catalogue = expectStatus(await w.call(w.a, 'GET', '/roles/permisos'), 200).body.items as Json[];
    const modules = catalogue.filter((e) => e.group === 'Generador' && String(e.permission).startsWith('mod.'));
    assert.deepEqual(
      modules.map((e) => e.permission),
      ['mod.agua:read', 'mod.agua:write', 'mod.agua:sign', 'mod.vacuna-hb:read', 'mod.vacuna-hb:write', 'mod.vacuna-hb:sign'],
    );
    const other = expectStatus(await w.call(w.b, 'GET', '/roles/permisos'), 200).body.items as Json[];
    assert.ok(!JSON.stringify(other).includes('mod.'), "another company never sees a company's modules");
  });

  it('lets a role manager grant only the module permissions it holds', async () => {
    const manager = await w.memberWith(['roles:read', 'roles:admin', 'mod.vacuna-hb:read']);
    expectStatus(await role('lectora', ['mod.vacuna-hb:read'], manager.token), 201);
    const unknown = await role('fantasma', ['mod.fantasma:read'], manager.token);
    assert.equal(unknown.status, 422, 'a module the company has not defined: the catalogue answer, for a manager too');
    const beyond = await role('escritora', ['mod.vacuna-hb:write'], manager.token);
    assert.equal(beyond.status, 403, JSON.stringify(beyond.body));
    assert.deepEqual(beyond.body.permissions, ['mod.vacuna-hb:write']);
  });

  it("shows a module's record events in the feed only to readers of that module, with the patient", async () => {
    const patientId = await w.patient(w.a);
    const record = await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId, values: { dose: 1 } });
    const water = await seedRecord(w.server, tenant, { module: 'agua', patientId: null, values: { dose: 2 } });
    const items = async (token: string): Promise<Json[]> =>
      expectStatus(await w.call(token, 'GET', `/sistema/eventos?from=${start}&limit=500&recordType=moduleRecord`), 200).body
        .items as Json[];
    const reader = await w.memberWith(['mod.vacuna-hb:read']);
    const seen = await items(reader.token);
    assert.deepEqual(
      seen.map((e) => [e.type, e.recordId, e.patientId]),
      [['ModuleRecordCreated', record.id, patientId]],
    );
    const none = await w.memberWith(['mod.vacuna-hb:write']);
    assert.deepEqual(await items(none.token), []);
    const admin = await items(w.a);
    assert.deepEqual(admin.map((e) => e.recordId).sort(), [record.id, water.id].sort());
    const modules = expectStatus(await w.call(w.a, 'GET', `/sistema/eventos?from=${start}&recordType=generatedModule`), 200).body;
    assert.ok((modules.items as Json[]).some((e) => e.type === 'ModulePublished'));
    expectStatus(await w.call(w.b, 'GET', `/sistema/eventos?from=0&recordType=moduleRecord`), 200).body.items.forEach(() =>
      assert.fail("another company's module records"),
    );
  });

  it("gives an API client holding a role with a module's read that module's records in the feed, and no other", async () => {
    expectStatus(await role('lectura-agua', ['mod.agua:read']), 201);
    const created = expectStatus(await w.call(w.a, 'POST', '/integraciones', { json: { name: 'Planta', roles: ['lectura-agua'] } }), 201);
    const issued = await clientToken(w.server, created.body.client.id as string, created.body.clientSecret as string);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const water = await seedRecord(w.server, tenant, { module: 'agua', patientId: null, values: { dose: 1 } });
    await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId: null, values: { dose: 1 } });
    const answer = await w.call(
      issued.body.access_token as string,
      'GET',
      `/sistema/eventos?from=${start}&limit=500&recordType=moduleRecord`,
    );
    const seen = expectStatus(answer, 200).body.items as Json[];
    assert.ok(seen.some((e) => e.recordId === water.id));
    assert.ok(seen.every((e) => (e.data as Json).module === 'agua'));
  });
});
