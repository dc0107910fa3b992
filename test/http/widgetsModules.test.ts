// The module-records widget over HTTP (issue 26, H5): a company module's records by state, per month and the latest,
// to readers of that module only (mod.<code>:read beside widgets:read); another company's module is a 404.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, type StaffWorld, type Json } from './staffWorld.js';
import { registration } from './pacientesWorld.js';
import { seedModule, seedRecord, seedRecordEvent, vaccineDefinition } from './generadorSeeds.js';
import { lastMonths } from '../../src/queries/widgets/moduleWidgets.js';

const STATES = {
  initial: 'draft',
  states: [
    { name: 'draft', label: 'Borrador' },
    { name: 'signed', label: 'Firmado' },
  ],
  transitions: [{ name: 'sign', label: 'Firmar', from: ['draft'], to: 'signed', signs: true }],
};

describe('The module-records widget over HTTP', () => {
  let w: StaffWorld;
  let tenant: string;
  let patientId: string;
  let latest: string;

  const data = (token: string, query: string) => w.call(token, 'GET', `/widgets/module-records/datos?${query}`);
  const catalogIds = async (token: string) =>
    (expectStatus(await w.call(token, 'GET', '/widgets/catalogo'), 200).body.items as Json[]).map((i) => i.id);

  before(async () => {
    w = await startStaffWorld();
    tenant = w.server.admin.companyId;
    patientId = expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    await seedModule(w.server, tenant, 'vacuna-hb', vaccineDefinition({ states: STATES }));
    await seedModule(w.server, tenant, 'agua', vaccineDefinition({ name: 'Agua', patientLinked: false }));
    const old = new Date(w.server.services.now().getTime() - 62 * 86_400_000).toISOString();
    await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId, values: { dose: 1 }, state: 'draft', occurredAt: old });
    const signed = await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId, values: { dose: 2 }, state: 'draft' });
    const move = { module: 'vacuna-hb', transition: 'sign', from: 'draft', to: 'signed', signed: true, patientId };
    await seedRecordEvent(w.server, tenant, signed.id, 'ModuleRecordTransitioned', move);
    latest = (await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId, values: { dose: 3, lot: 'L' }, state: 'draft' })).id;
    await seedRecordEvent(w.server, tenant, latest, 'ModuleRecordArchived', { module: 'vacuna-hb', patientId });
    await seedRecord(w.server, tenant, { module: 'agua', patientId: null, values: { dose: 1 } });
  });
  after(async () => w?.close());

  it("counts a module's records by state, per month created, and lists the latest with their patient", async () => {
    const reader = await w.memberWith(['widgets:read', 'mod.vacuna-hb:read']);
    assert.ok((await catalogIds(reader.token)).includes('module-records'));
    const answer = expectStatus(await data(reader.token, 'module=vacuna-hb&limit=2'), 200).body;
    const d = answer.data as Json;
    assert.equal(d.total, 3);
    assert.deepEqual(
      (d.counts as Json[]).map((c) => [c.key, c.label, c.value]),
      [
        ['draft', 'Borrador', 1],
        ['signed', 'Firmado', 1],
        ['archived', 'Archived', 1],
      ],
    );
    const points = (d.series as Json[])[0]!.points as Json[];
    const months = lastMonths(w.server.services.now().toISOString().slice(0, 7));
    assert.deepEqual(
      points.map((p) => p.x),
      months,
    );
    assert.equal(points.at(-1)!.y, 2);
    assert.equal(
      points.reduce((sum, p) => sum + (p.y as number), 0),
      3,
    );
    const items = d.items as Json[];
    assert.equal(items.length, 2);
    assert.deepEqual([items[0]!.id, items[0]!.label, items[0]!.detail, items[0]!.patientId], [latest, '3', 'Archived', patientId]);
  });

  it('shows a module without states as active and archived', async () => {
    const d = expectStatus(await data(w.a, 'module=agua'), 200).body.data as Json;
    assert.deepEqual(
      (d.counts as Json[]).map((c) => [c.key, c.value]),
      [
        ['active', 1],
        ['archived', 0],
      ],
    );
  });

  it("refuses a reader without the module's read (403 naming it), lists it only to module readers, needs a module", async () => {
    const none = await w.memberWith(['widgets:read']);
    assert.ok(!(await catalogIds(none.token)).includes('module-records'));
    const refused = await data(none.token, 'module=vacuna-hb');
    assert.equal(refused.status, 403);
    assert.ok(JSON.stringify(refused.body).includes('mod.vacuna-hb:read'));
    const water = await w.memberWith(['widgets:read', 'mod.agua:read']);
    assert.ok((await catalogIds(water.token)).includes('module-records'));
    expectStatus(await data(water.token, 'module=vacuna-hb'), 403);
    expectStatus(await data(water.token, 'module=agua'), 200);
    const missing = await data(w.a, '');
    assert.equal(missing.status, 422);
    assert.ok(JSON.stringify(missing.body).includes('/query/module'));
  });

  it("marks a dashboard panel of a module the reader may not read as unreadable, the other module's as readable", async () => {
    const water = await w.memberWith(['widgets:read', 'mod.agua:read']);
    const mine = expectStatus(await w.call(water.token, 'GET', '/widgets/tableros/mio'), 200);
    const panel = (panelId: string, module: string, x: number) => ({
      panelId,
      widgetId: 'module-records',
      params: { module },
      position: { x, y: 0, w: 6, h: 4 },
    });
    const json = { title: 'Registros', panels: [panel('agua', 'agua', 0), panel('vacuna', 'vacuna-hb', 6)], reason: 'my modules' };
    const headers = { 'if-match': mine.headers.get('etag')! };
    const saved = expectStatus(await w.call(water.token, 'PUT', `/widgets/tableros/${String(mine.body.id)}`, { json, headers }), 200);
    assert.deepEqual(
      (saved.body.panels as Json[]).map((p) => [p.panelId, p.readable]),
      [
        ['agua', true],
        ['vacuna', false],
      ],
    );
  });

  it("answers another company's module, and a module not defined, with 404", async () => {
    expectStatus(await data(w.b, 'module=vacuna-hb'), 404);
    expectStatus(await data(w.a, 'module=fantasma'), 404);
  });
});
