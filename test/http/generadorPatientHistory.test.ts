// A patient's history over HTTP (issue 26, H5): the events of its records of patient-linked company modules join it,
// only those of modules the reader may read; another company's patient stays a 404.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, type StaffWorld, type Json } from './staffWorld.js';
import { registration } from './pacientesWorld.js';
import { seedModule, seedRecord, vaccineDefinition } from './generadorSeeds.js';

describe("Generador records in the patient's history over HTTP", () => {
  let w: StaffWorld;
  let patientId: string;
  let vaccine: string;
  let access: string;

  before(async () => {
    w = await startStaffWorld();
    const tenant = w.server.admin.companyId;
    patientId = expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    await seedModule(w.server, tenant, 'vacuna-hb');
    await seedModule(w.server, tenant, 'vigilancia-fav', vaccineDefinition({ name: 'Vigilancia FAV' }));
    vaccine = (await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId, values: { dose: 1, lot: 'L-1' } })).id;
    access = (await seedRecord(w.server, tenant, { module: 'vigilancia-fav', patientId, values: { dose: 2 } })).id;
    await seedRecord(w.server, tenant, { module: 'vacuna-hb', patientId: null, values: { dose: 3 } });
  });
  after(async () => w?.close());

  const history = async (token: string): Promise<Json[]> =>
    expectStatus(await w.call(token, 'GET', `/pacientes/${patientId}/historial?limit=100`), 200).body.items as Json[];
  const moduleEntries = (items: Json[]) => items.filter((e) => e.recordType === 'moduleRecord').map((e) => [e.type, e.recordId]);

  it('shows the admin every module record of the patient, with what each event set', async () => {
    const items = await history(w.a);
    assert.deepEqual(moduleEntries(items), [
      ['ModuleRecordCreated', vaccine],
      ['ModuleRecordCreated', access],
    ]);
    const created = items.find((e) => e.recordId === vaccine)!;
    assert.ok(JSON.stringify(created.changes).includes('L-1'), JSON.stringify(created.changes));
    assert.equal(items[0]!.recordType, 'patient', 'after the patient, in log order');
  });

  it('shows a reader only the records of the modules it may read', async () => {
    const reader = await w.memberWith(['pacientes:read', 'mod.vacuna-hb:read']);
    assert.deepEqual(moduleEntries(await history(reader.token)), [['ModuleRecordCreated', vaccine]]);
    const plain = await w.memberWith(['pacientes:read', 'mod.vigilancia-fav:write']);
    assert.deepEqual(moduleEntries(await history(plain.token)), []);
  });

  it("keeps another company's patient a 404", async () => {
    expectStatus(await w.call(w.b, 'GET', `/pacientes/${patientId}/historial`), 404);
  });
});
