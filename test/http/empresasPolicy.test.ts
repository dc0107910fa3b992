// The company policy over real HTTP: defaults, partial changes with If-Match, validation, history, permissions.
import assert from 'node:assert/strict';
import { DEFAULT_POLICY } from '../../src/commands/empresas/shared/policySettings.js';
import { adoptDefaultPolicy } from '../../src/commands/empresas/policyWrites.js';
import { companyPolicy } from '../../src/queries/empresas/companyPolicy.js';
import { expectStatus, pointers, startEmpresasWorld, type EmpresasWorld } from './empresasWorld.js';

const POLICY = '/empresas/actual/politica';

describe('Empresas: company policy', () => {
  let w: EmpresasWorld;
  before(async () => {
    w = await startEmpresasWorld();
  });
  after(async () => {
    await w.close();
  });

  const put = (token: string, json: unknown, ifMatch?: string) =>
    w.call(token, 'PUT', POLICY, { json, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

  it('answers the defaults with revision -1 before anything is recorded', async () => {
    const answer = expectStatus(await w.call(w.a, 'GET', POLICY), 200);
    assert.equal(answer.body.revision, -1);
    assert.equal(answer.headers.get('etag'), 'W/"-1"');
    assert.deepEqual(answer.body.settings, DEFAULT_POLICY);
    assert.deepEqual(await companyPolicy(w.server.services, w.server.admin.companyId), { revision: -1, settings: DEFAULT_POLICY });
  });

  it('changes part of the policy with If-Match, records who/when/why, and reads back with minPosition', async () => {
    const body = { settings: { adequacy: { ktvTarget: 1.5 }, bloodlineReuse: { enabled: true } }, reason: 'Acta del comité 2025-03' };
    expectStatus(await put(w.a, body), 428, 'precondition-required');
    expectStatus(await put(w.a, body, 'W/"0"'), 412, 'precondition-failed');
    const changed = expectStatus(await put(w.a, body, 'W/"-1"'), 200);
    assert.equal(changed.body.revision, 0);
    assert.equal(changed.headers.get('etag'), 'W/"0"');
    assert.equal(changed.body.settings.adequacy.ktvTarget, 1.5);
    assert.equal(changed.body.settings.adequacy.ktvMinimum, 1.2);
    assert.equal(changed.body.settings.bloodlineReuse.enabled, true);
    assert.equal(changed.body.updatedBy, w.actorA);
    const position = changed.headers.get('x-event-position');
    assert.ok(position);

    const read = expectStatus(await w.call(w.a, 'GET', `${POLICY}?minPosition=${encodeURIComponent(position)}`), 200);
    assert.equal(read.body.revision, 0);
    assert.equal(read.body.settings.adequacy.ktvTarget, 1.5);
    const forDeciders = await companyPolicy(w.server.services, w.server.admin.companyId);
    assert.equal(forDeciders.revision, 0);
    assert.equal(forDeciders.settings.bloodlineReuse.enabled, true);

    // The same change again from an old ETag loses; from the current one it changes nothing: 200, no event.
    expectStatus(await put(w.a, body, 'W/"-1"'), 412, 'precondition-failed');
    const same = expectStatus(await put(w.a, body, 'W/"0"'), 200);
    assert.equal(same.body.revision, 0);
    assert.equal(same.headers.get('x-event-position'), null);

    const history = expectStatus(await w.call(w.a, 'GET', `${POLICY}/historial?minPosition=${encodeURIComponent(position)}`), 200);
    assert.equal(history.body.items.length, 1);
    const [entry] = history.body.items;
    assert.equal(entry.type, 'PolicyChanged');
    assert.equal(entry.revision, 0);
    assert.equal(entry.policyRevision, -1);
    assert.equal(entry.actor, w.actorA);
    assert.equal(entry.reason, 'Acta del comité 2025-03');
    assert.ok(entry.occurredAt);
    assert.deepEqual(entry.changes, [
      { path: '/bloodlineReuse/enabled', from: false, to: true },
      { path: '/adequacy/ktvTarget', from: 1.4, to: 1.5 },
    ]);
  });

  it('refuses out-of-range and inconsistent values with 422 naming each field', async () => {
    const current = expectStatus(await w.call(w.a, 'GET', POLICY), 200);
    const etag = current.headers.get('etag')!;
    const ranges = await put(
      w.a,
      { settings: { dialyzerReuse: { tcvThresholdPercent: 45 }, adequacy: { ufRateThresholdMlKgH: 30 } }, reason: 'x' },
      etag,
    );
    expectStatus(ranges, 422);
    assert.deepEqual(pointers(ranges), [
      '/body/settings/adequacy/ufRateThresholdMlKgH',
      '/body/settings/dialyzerReuse/tcvThresholdPercent',
    ]);

    const cross = await put(w.a, { settings: { adequacy: { ktvMinimum: 1.6 } }, reason: 'x' }, etag);
    expectStatus(cross, 422, 'validation-failed');
    assert.deepEqual(pointers(cross), ['/body/settings/adequacy/ktvTarget']);

    const unknown = await put(w.a, { settings: { adequacy: { ktv: 1 } } }, etag);
    expectStatus(unknown, 422);
    assert.deepEqual(pointers(unknown), ['/body/reason', '/body/settings/adequacy/ktv']);

    const blank = await put(w.a, { settings: { adequacy: { ktvTarget: 1.6 } }, reason: '   ' }, etag);
    expectStatus(blank, 422);
    assert.deepEqual(pointers(blank), ['/body/reason']);
  });

  it('is per company: company B still has the defaults', async () => {
    const answer = expectStatus(await w.call(w.b, 'GET', POLICY), 200);
    assert.equal(answer.body.revision, -1);
    assert.equal(answer.body.settings.adequacy.ktvTarget, 1.4);
  });

  it('lets a reader read but not change the policy (403 without empresas:admin)', async () => {
    expectStatus(await w.call(w.reader, 'GET', POLICY), 200);
    expectStatus(await w.call(w.reader, 'GET', `${POLICY}/historial`), 200);
    const refused = await put(w.reader, { settings: { adequacy: { ktvTarget: 1.6 } }, reason: 'x' }, 'W/"0"');
    expectStatus(refused, 403, 'forbidden');
  });

  it('adopts the defaults once for a registered company, idempotently', async () => {
    const companyId = (await w.server.createCompanyWithAdmin('Clinica Tres', 'admin@tres.example', 'a third long passphrase')).companyId;
    const first = await adoptDefaultPolicy(w.server.services, companyId, { actor: 'system' });
    const again = await adoptDefaultPolicy(w.server.services, companyId, { actor: 'system' });
    assert.equal(first.revision, 0);
    assert.equal(again.revision, 0);
    assert.equal(again.position, first.position);
    await w.server.services.projections.waitFor(first.position!);
    assert.deepEqual(await companyPolicy(w.server.services, companyId), { revision: 0, settings: DEFAULT_POLICY });
  });
});
