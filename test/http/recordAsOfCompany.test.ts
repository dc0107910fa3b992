// Any record as it was (issue 23 item 2) for the company's own records over real HTTP: a warehouse and the policy
// read asOf an instant or at a version, the answer before they existed, and another company's record absent.
import assert from 'node:assert/strict';
import { expectStatus, startDialisisWorld, unique, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE } from './dialisisSessionSteps.js';

describe('Any record as it was over HTTP: warehouses and the company policy', () => {
  let w: DialisisWorld;
  before(async () => {
    w = await startDialisisWorld();
  });
  after(async () => w?.close());

  const get = (path: string, token = w.a) => w.call(token, 'GET', path);
  const at = (instant: string): string => `asOf=${encodeURIComponent(instant)}`;
  const madeBy = (headers: Headers): string => headers.get('x-record-event') ?? '';

  it('a warehouse as it was: there at its creation, not yet before it, absent in another company', async () => {
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const store = { locationId: w.stationA.locationId, code: unique('ALM-'), name: 'Almacén de farmacia', kind: 'pharmacy' };
    const created = expectStatus(await w.call(w.a, 'POST', '/productos/almacenes', { json: store }), 201).body;
    const path = `/productos/almacenes/${created.id as string}`;
    const now = w.server.clock.now().toISOString();
    const then = expectStatus(await get(`${path}?${at(now)}`), 200);
    assert.deepEqual(then.body, created);
    assert.match(madeBy(then.headers), /^version=0, type="WarehouseCreated"/);
    assert.deepEqual(expectStatus(await get(`${path}?version=0`), 200).body, created);
    expectStatus(await get(`${path}?version=1`), 404, 'not-found');
    const early = expectStatus(await get(`${path}?${at(before)}`), 404, 'not-yet-existing');
    assert.equal(early.body.firstEventAt, created.createdAt);
    expectStatus(await get(`${path}?${at(now)}`, w.b), 404, 'not-found');
  });

  it('the policy as it was before a change, at a version, and the defaults before anything was recorded', async () => {
    const POLICY = '/empresas/actual/politica';
    const current = expectStatus(await get(POLICY), 200);
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const change = (ktvTarget: number) => ({ settings: { adequacy: { ktvTarget } }, reason: 'Acta del comité' });
    const first = await w.call(w.a, 'PUT', POLICY, { json: change(1.5), headers: { 'if-match': current.headers.get('etag')! } });
    const changed = expectStatus(first, 200).body;
    const between = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const second = await w.call(w.a, 'PUT', POLICY, { json: change(1.6), headers: { 'if-match': first.headers.get('etag')! } });
    assert.equal((expectStatus(second, 200).body.settings as Json & { adequacy: Json }).adequacy.ktvTarget, 1.6);

    const then = expectStatus(await get(`${POLICY}?${at(between)}`), 200);
    assert.deepEqual(then.body, changed);
    assert.equal(then.headers.get('etag'), first.headers.get('etag'));
    assert.match(madeBy(then.headers), new RegExp(`^version=${changed.revision as number}, `));
    assert.deepEqual(expectStatus(await get(`${POLICY}?version=${changed.revision as number}`), 200).body, changed);
    expectStatus(await get(`${POLICY}?version=${(changed.revision as number) + 50}`), 404, 'not-found');
    // Before the change: the policy then in force (the defaults at revision -1 while nothing was recorded).
    const earlier = expectStatus(await get(`${POLICY}?${at(before)}`), 200);
    assert.deepEqual([earlier.body, earlier.headers.get('etag')], [current.body, current.headers.get('etag')]);
    // Another company's policy is its own: company B's read asOf names B's policy, never A's change.
    const other = expectStatus(await get(`${POLICY}?${at(between)}`, w.b), 200).body;
    assert.notDeepEqual(other.settings, changed.settings);
  });

  it('the company as it was before a correction, at a version, before its registration; the platform reads any company so', async () => {
    const current = expectStatus(await get('/empresas/actual'), 200);
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const correction = {
      json: { tradeName: unique('Renal '), reason: 'Rebranding' },
      headers: { 'if-match': current.headers.get('etag')! },
    };
    const corrected = expectStatus(await w.call(w.a, 'PATCH', '/empresas/actual', correction), 200).body;
    assert.notEqual(corrected.name, current.body.name);

    const then = expectStatus(await get(`/empresas/actual?${at(before)}`), 200);
    assert.deepEqual([then.body, then.headers.get('etag')], [current.body, current.headers.get('etag')]);
    const revision = Number(/\d+/.exec(current.headers.get('etag')!)![0]);
    assert.match(madeBy(then.headers), new RegExp(`^version=${revision}, `));
    assert.deepEqual(expectStatus(await get(`/empresas/actual?version=${revision}`), 200).body, current.body);
    expectStatus(await get(`/empresas/actual?version=${revision + 50}`), 404, 'not-found');
    const early = expectStatus(await get(`/empresas/actual?${at('2001-01-01T00:00:00Z')}`), 404, 'not-yet-existing');
    assert.equal(early.body.firstEventAt, current.body.registeredAt);
    // Company B reads its own company then, never A's.
    assert.notEqual(expectStatus(await get(`/empresas/actual?${at(before)}`, w.b), 200).body.id, current.body.id);

    const platform = await w.server.signInAndSelect(w.server.admin);
    const byPlatform = expectStatus(await get(`/empresas/${current.body.id as string}?${at(before)}`, platform), 200);
    assert.deepEqual(byPlatform.body, current.body);
    expectStatus(await get(`/empresas/${current.body.id as string}?${at('2001-01-01T00:00:00Z')}`, platform), 404, 'not-yet-existing');
    expectStatus(await get(`/empresas/Nope${Date.now()}?version=0`, platform), 404, 'not-found');
    expectStatus(await get(`/empresas/${current.body.id as string}?${at(before)}`, w.nurse.token), 403);
  });

  it("a user as they were before a change of roles; before they joined, not yet; another company's user absent", async () => {
    const path = `/usuarios/${w.nurse.userId}`;
    const current = expectStatus(await get(path), 200).body;
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const roles = [...(current.roles as string[]), 'auditor'].sort();
    expectStatus(await w.call(w.a, 'PUT', `${path}/roles`, { json: { roles, reason: 'Internal audit' } }), 200);
    assert.deepEqual(expectStatus(await get(path), 200).body.roles, roles);

    const then = expectStatus(await get(`${path}?${at(before)}`), 200);
    assert.deepEqual(then.body, current);
    assert.match(madeBy(then.headers), /^version=\d+, type="/);
    const early = expectStatus(await get(`${path}?${at('2001-01-01T00:00:00Z')}`), 404, 'not-yet-existing');
    assert.ok(Date.parse(early.body.firstEventAt as string) <= Date.parse(current.memberSince as string));
    const version = /^version=(\d+)/.exec(madeBy(then.headers))![1]!;
    assert.deepEqual(expectStatus(await get(`${path}?version=${version}`), 200).body, current);
    expectStatus(await get(`${path}?version=500`), 404, 'not-found');
    expectStatus(await get(`${path}?${at(before)}`, w.b), 404, 'not-found');
  });

  it('a role as it was before its change, at a version, before it was defined, after its retirement; built-in roles too', async () => {
    const code = `auditoria-${Date.now() % 100000}`;
    const perms = (permissions: string[]) => ({ name: 'Auditoría interna', permissions, reason: 'Comité de calidad' });
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const defined = expectStatus(await w.call(w.a, 'POST', '/roles', { json: { code, ...perms(['pacientes:read']) } }), 201).body;
    const between = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    expectStatus(await w.call(w.a, 'PUT', `/roles/${code}`, { json: perms(['pacientes:read', 'roles:read']) }), 200);
    const path = `/roles/${code}`;
    assert.deepEqual(expectStatus(await get(path), 200).body.permissions, ['pacientes:read', 'roles:read']);

    const then = expectStatus(await get(`${path}?${at(between)}`), 200);
    assert.deepEqual(then.body, defined);
    assert.match(madeBy(then.headers), /^version=0, type="RoleDefined"/);
    assert.deepEqual(expectStatus(await get(`${path}?version=0`), 200).body, defined);
    assert.deepEqual(expectStatus(await get(`${path}?version=1`), 200).body.permissions, ['pacientes:read', 'roles:read']);
    expectStatus(await get(`${path}?version=2`), 404, 'not-found');
    expectStatus(await get(`${path}?${at(before)}`), 404, 'not-yet-existing');
    expectStatus(await get(`${path}?${at(between)}`, w.b), 404, 'not-found');

    await w.advance(MINUTE);
    expectStatus(await w.call(w.a, 'POST', `${path}/retiro`, { json: { reason: 'Ya no se usa' } }), 204);
    expectStatus(await get(path), 404);
    assert.deepEqual(expectStatus(await get(`${path}?${at(between)}`), 200).body, defined);
    const gone = expectStatus(await get(`${path}?${at(w.server.clock.now().toISOString())}`), 404, 'not-found');
    assert.match(gone.body.detail as string, /removed at/);

    const nurse = expectStatus(await get('/roles/nurse'), 200).body;
    assert.deepEqual(expectStatus(await get(`/roles/nurse?${at(between)}`), 200).body.permissions, nurse.permissions);
    expectStatus(await get(`/roles/nurse?${at('2001-01-01T00:00:00Z')}`), 404, 'not-yet-existing');
  });

  it("an API client as it was before a change of roles and its revocation; before it existed, not yet; another company's absent", async () => {
    const before = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    const created = expectStatus(await w.call(w.a, 'POST', '/integraciones', { json: { name: 'HIS sync', roles: ['nurse'] } }), 201).body;
    const path = `/integraciones/${(created.client as Json).id as string}`;
    const current = expectStatus(await get(path), 200).body;
    const between = w.server.clock.now().toISOString();
    await w.advance(MINUTE);
    expectStatus(await w.call(w.a, 'PUT', `${path}/roles`, { json: { roles: ['auditor'], reason: 'Audit export' } }), 200);
    assert.deepEqual(expectStatus(await get(path), 200).body.roles, ['auditor']);

    const then = expectStatus(await get(`${path}?${at(between)}`), 200);
    assert.deepEqual(then.body, current);
    assert.match(madeBy(then.headers), /^version=0, type="ApiClientCreated"/);
    assert.deepEqual(expectStatus(await get(`${path}?version=0`), 200).body, current);
    assert.deepEqual(expectStatus(await get(`${path}?version=1`), 200).body.roles, ['auditor']);
    expectStatus(await get(`${path}?version=9`), 404, 'not-found');
    expectStatus(await get(`${path}?${at(before)}`), 404, 'not-yet-existing');
    expectStatus(await get(`${path}?${at(between)}`, w.b), 404, 'not-found');
  });
});
