// GET /generador/openapi.json over HTTP: the company's published and retired modules the caller may read, never a
// draft, never another company's. Modules are published by appending their events (the definition routes are another
// part of issue 26); the document is then read through the real route, auth and read model.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { moduleStream, type ModuleEvent } from '../../src/commands/generador/module/moduleEvents.js';
import type { ModuleDefinition } from '../../src/commands/generador/shared/definitionTypes.js';
import { servedModules } from '../../src/queries/generador/modules.js';
import { testMetadata } from '../support/eventFixtures.js';
import { expectStatus, startStaffWorld, type Json, type StaffWorld } from './staffWorld.js';
import { VACUNACION_CODE, vacunacionHbv } from '../commands/generador/vacunacionHbv.js';

const simple = (name: string): ModuleDefinition => ({
  name,
  patientLinked: false,
  fields: [{ name: 'note', label: 'Note', type: 'text', maxLength: 200 }],
  filterFields: [],
  sortFields: [],
});

describe('Generador: GET /generador/openapi.json', function () {
  this.timeout(120_000);
  let w: StaffWorld;
  let other: string;

  /** Appends a module's events as its decider would, and waits for the read model. */
  async function moduleWith(tenantId: string, code: string, definition: ModuleDefinition, then: ('publish' | 'retire')[]): Promise<void> {
    const version = { major: 1, minor: 0 };
    const events: ModuleEvent[] = [{ type: 'ModuleDefined', data: { code, definition, version } }];
    if (then.includes('publish')) events.push({ type: 'ModulePublished', data: { version } });
    if (then.includes('retire')) events.push({ type: 'ModuleRetired', data: {} });
    const { services } = w.server;
    await services.events.appendToStream(
      moduleStream(tenantId, code),
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: testMetadata(tenantId) })),
      { expectedRevision: 'no_stream' },
    );
    await services.projections.waitFor(await services.events.headPosition());
  }
  const paths = (doc: Json): string[] => Object.keys(doc.paths as Json).sort();
  /** The session holds the module permission the test relies on (roles grant them; the admin holds 'mod.*'). */
  async function mustHold(token: string, permission: string): Promise<void> {
    const me = expectStatus(await w.call(token, 'GET', '/auth/me'), 200).body;
    assert.ok(JSON.stringify(me).includes(`"${permission}"`), `the session holds ${permission}`);
  }

  before(async () => {
    w = await startStaffWorld();
    const tenantA = w.server.admin.companyId;
    await moduleWith(tenantA, VACUNACION_CODE, vacunacionHbv, ['publish']);
    await moduleWith(tenantA, 'agua-tratada', simple('Water log'), ['publish', 'retire']);
    await moduleWith(tenantA, 'borrador', simple('Draft'), []);
    const companyB = await w.server.createCompanyWithAdmin(
      'Clinica Generador B',
      `admin-gen-${randomUUID().slice(0, 8)}@b.example`,
      'a long passphrase for b 9',
    );
    await moduleWith(companyB.companyId, 'solo-b', simple('Only B'), ['publish']);
    other = await w.server.signInAndSelect(companyB);
  });
  after(async () => w?.close());

  it('lists the modules the caller may read, with their named schemas; a retired one answers reads only; never a draft', async function () {
    const all = w.a; // the admin role holds every module's permissions ('mod.*')
    await mustHold(all, 'mod.*');
    const doc = expectStatus(await w.call(all, 'GET', '/generador/openapi.json'), 200).body;
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(paths(doc), [
      '/generador/m/agua-tratada',
      '/generador/m/agua-tratada/{id}',
      '/generador/m/agua-tratada/{id}/historial',
      '/generador/m/vacunacion-hbv',
      '/generador/m/vacunacion-hbv/{id}',
      '/generador/m/vacunacion-hbv/{id}/archivo',
      '/generador/m/vacunacion-hbv/{id}/historial',
      '/generador/m/vacunacion-hbv/{id}/transiciones/{transition}',
    ]);
    assert.deepEqual(Object.keys((doc.paths as Json)['/generador/m/agua-tratada'] as Json), ['get']);
    assert.ok('VacunacionHbvCreate' in ((doc.components as Json).schemas as Json));
    assert.equal(typeof (doc.info as Json).title, 'string');
  });

  it("one module's read permission shows that module only; none shows none", async function () {
    const one = (await w.memberWith([`mod.${VACUNACION_CODE}:read`])).token;
    await mustHold(one, `mod.${VACUNACION_CODE}:read`);
    const doc = expectStatus(await w.call(one, 'GET', '/generador/openapi.json'), 200).body;
    assert.ok(paths(doc).every((p) => p.startsWith(`/generador/m/${VACUNACION_CODE}`)));
    assert.ok(paths(doc).length > 0);
    const none = (await w.memberWith(['pacientes:read'])).token;
    assert.deepEqual(paths(expectStatus(await w.call(none, 'GET', '/generador/openapi.json'), 200).body), []);
  });

  it("another company never sees the company's modules, nor the company theirs; no token is a 401", async () => {
    // The company's modules are served (the read model has them): what the route filters, never a missing seed.
    const served = await servedModules({ services: w.server.services, auth: { tenantId: w.server.admin.companyId } });
    assert.deepEqual(
      served.map((m) => `${m.code} ${m.status}`),
      ['agua-tratada retired', `${VACUNACION_CODE} published`],
    );
    const b = expectStatus(await w.call(other, 'GET', '/generador/openapi.json'), 200).body;
    const text = JSON.stringify(b);
    assert.ok(!text.includes(VACUNACION_CODE) && !text.includes('agua-tratada') && !text.includes('VacunacionHbv'));
    const a = expectStatus(await w.call((await w.memberWith(['mod.*'])).token, 'GET', '/generador/openapi.json'), 200).body;
    assert.ok(!JSON.stringify(a).includes('solo-b'));
    assert.equal((await w.server.request('GET', '/generador/openapi.json')).status, 401);
  });
});
