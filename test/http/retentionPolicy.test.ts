// Retention periods per record type over HTTP: in the policy's GET, documented in the contract, lengthened with
// If-Match and refused below the legal minimum (422 naming the field).
import assert from 'node:assert/strict';
import { DEFAULT_POLICY, RETENTION_RECORD_TYPES } from '../../src/commands/empresas/shared/policySettings.js';
import { policies } from '../../src/queries/empresas/readModel.js';
import { expectStatus, pointers, startEmpresasWorld, type EmpresasWorld, type Json } from './empresasWorld.js';

const POLICY = '/empresas/actual/politica';

describe('Empresas: retention periods in the company policy', () => {
  let w: EmpresasWorld;
  before(async () => {
    w = await startEmpresasWorld();
  });
  after(async () => {
    await w.close();
  });

  it('answers every record type at its legal default in GET of the policy', async () => {
    const answer = expectStatus(await w.call(w.a, 'GET', POLICY), 200);
    assert.deepEqual(answer.body.settings.retention, {
      clinicalRecordsYears: 15,
      auditEntriesYears: 15,
      equipmentRecordsYears: 15,
      billingRecordsYears: 10,
      staffRecordsYears: 10,
      inventoryRecordsYears: 5,
    });
  });

  it("documents each record type's default, its legal minimum and what it covers in the contract", async () => {
    const doc = (await w.server.request('GET', '/openapi.json')).body;
    const deref = (node: { $ref?: string }): Json =>
      node.$ref ? deref(doc.components.schemas[node.$ref.replace('#/components/schemas/', '')]) : node;
    const view = deref(doc.paths[POLICY].get.responses['200'].content['application/json'].schema);
    const retention = deref(deref(view.properties.settings).properties.retention);
    assert.ok(retention, 'the policy schema has a retention section');
    for (const type of RETENTION_RECORD_TYPES) {
      const field = retention.properties[type.setting];
      assert.equal(field.minimum, type.legalMinimumYears, type.setting);
      assert.match(field.description, new RegExp(`default ${type.legalMinimumYears} years`), type.setting);
      assert.ok(field.description.includes(type.covers), type.setting);
    }
    const put = deref(doc.paths[POLICY].put.requestBody.content['application/json'].schema);
    assert.ok(deref(deref(put.properties.settings).properties.retention).properties.clinicalRecordsYears);
  });

  it('refuses a period below the legal minimum with 422 naming the field, and an audit shorter than the records', async () => {
    const etag = expectStatus(await w.call(w.a, 'GET', POLICY), 200).headers.get('etag')!;
    const headers = { 'if-match': etag };
    const below = await w.call(w.a, 'PUT', POLICY, {
      json: { settings: { retention: { clinicalRecordsYears: 5 } }, reason: 'Ahorro de almacenamiento' },
      headers,
    });
    expectStatus(below, 422);
    assert.deepEqual(pointers(below), ['/body/settings/retention/clinicalRecordsYears']);

    const shorterAudit = await w.call(w.a, 'PUT', POLICY, {
      json: { settings: { retention: { clinicalRecordsYears: 20 } }, reason: 'Asesoría legal' },
      headers,
    });
    expectStatus(shorterAudit, 422, 'validation-failed');
    assert.deepEqual(pointers(shorterAudit), ['/body/settings/retention/auditEntriesYears']);
  });

  it('lengthens periods with a reason, shown in GET and in the history; company B keeps the defaults', async () => {
    const etag = expectStatus(await w.call(w.a, 'GET', POLICY), 200).headers.get('etag')!;
    const json = { settings: { retention: { clinicalRecordsYears: 20, auditEntriesYears: 20 } }, reason: 'Convenio con la aseguradora' };
    const changed = expectStatus(await w.call(w.a, 'PUT', POLICY, { json, headers: { 'if-match': etag } }), 200);
    assert.equal(changed.body.settings.retention.clinicalRecordsYears, 20);
    const position = changed.headers.get('x-event-position')!;
    const read = expectStatus(await w.call(w.a, 'GET', `${POLICY}?minPosition=${encodeURIComponent(position)}`), 200);
    assert.equal(read.body.settings.retention.auditEntriesYears, 20);
    const history = expectStatus(await w.call(w.a, 'GET', `${POLICY}/historial?minPosition=${encodeURIComponent(position)}`), 200);
    const last = history.body.items.at(-1);
    assert.deepEqual(
      last.changes.map((c: { path: string }) => c.path),
      ['/retention/clinicalRecordsYears', '/retention/auditEntriesYears'],
    );
    assert.equal(last.reason, 'Convenio con la aseguradora');
    const b = expectStatus(await w.call(w.b, 'GET', POLICY), 200);
    assert.equal(b.body.settings.retention.clinicalRecordsYears, 15);
  });

  it('answers the legal defaults for a policy document projected before retention existed (read forward, never 500)', async () => {
    const companyId = w.server.admin.companyId;
    const stored = await policies(w.server.services).get(companyId, companyId);
    assert.ok(stored, "company A's policy is projected");
    const { retention: _absent, ...older } = stored.settings;
    await policies(w.server.services).replace({ ...stored, settings: older as typeof stored.settings });
    const answer = expectStatus(await w.call(w.a, 'GET', POLICY), 200);
    assert.deepEqual(answer.body.settings.retention, DEFAULT_POLICY.retention);
  });
});
