// CargosLaborales end to end over real HTTP: creation with a unique code, list, read, corrections with If-Match,
// deactivation and reactivation, history, tenancy and permissions.
import assert from 'node:assert/strict';
import { expectStatus, pointers, positionBody, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';

describe('CargosLaborales over HTTP', () => {
  let world: StaffWorld;
  before(async () => {
    world = await startStaffWorld();
  });
  after(async () => world?.close());

  it('creates a position and reads it back with ETag, Location and a position to read your write', async () => {
    const created = await world.createPosition(world.a, { code: ' MED-01 ' });
    const id = created.body.id as string;
    assert.equal(created.headers.get('location'), `/cargos-laborales/${id}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.ok(created.headers.get('x-event-position'));
    assert.equal(created.body.code, 'MED-01');
    assert.equal(created.body.status, 'active');
    const read = expectStatus(await world.call(world.a, 'GET', `/cargos-laborales/${id}`), 200);
    assert.equal(read.headers.get('etag'), 'W/"0"');
    assert.deepEqual(read.body.suggestedRoles, ['nurse']);
  });

  it('keeps codes unique within a company, ignoring case and spaces, also under concurrent creations (409); another company may reuse one', async () => {
    const code = unique('TEC-');
    await world.createPosition(world.a, { code });
    const again = await world.call(world.a, 'POST', '/cargos-laborales', { json: positionBody({ code: `  ${code.toLowerCase()} ` }) });
    expectStatus(again, 409, 'duplicate-code');
    await world.createPosition(world.b, { code });
    const racing = unique('RACE-');
    const answers = await Promise.all(
      [0, 1].map(() => world.call(world.a, 'POST', '/cargos-laborales', { json: positionBody({ code: racing }) })),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409]);
  });

  it('suggests only roles the company has (built-in or its own)', async () => {
    const unknown = await world.call(world.a, 'POST', '/cargos-laborales', {
      json: positionBody({ suggestedRoles: ['nurse', 'astronaut'] }),
    });
    expectStatus(unknown, 422, 'validation-failed');
    assert.deepEqual(pointers(unknown), ['/body/suggestedRoles']);
    assert.equal(unknown.body.detail, 'suggestedRoles: not roles of this company: astronaut');
    const created = expectStatus(
      await world.call(world.a, 'POST', '/cargos-laborales', { json: positionBody({ suggestedRoles: ['nurse', 'physician'] }) }),
      201,
    );
    // A correction of the roles: another company's position is 404 before the roles are judged, then 422, then 412.
    const correct = (token: string, roles: string[], etag: string) =>
      world.call(token, 'PATCH', `/cargos-laborales/${created.body.id}`, {
        json: { suggestedRoles: roles, reason: 'roles' },
        headers: { 'if-match': etag },
      });
    const absent = expectStatus(await correct(world.b, ['astronaut'], 'W/"0"'), 404, 'not-found');
    assert.equal(absent.body.detail, 'Job position not found');
    assert.deepEqual(pointers(expectStatus(await correct(world.a, ['astronaut'], 'W/"5"'), 422)), ['/body/suggestedRoles']);
    expectStatus(await correct(world.a, ['nurse'], 'W/"5"'), 412);
    expectStatus(await correct(world.a, ['nurse'], 'W/"0"'), 200);
  });

  it('refuses a licence requirement without a licensing body (422 naming it)', async () => {
    const answer = await world.call(world.a, 'POST', '/cargos-laborales', { json: positionBody({ licensingBody: undefined }) });
    assert.deepEqual(pointers(expectStatus(answer, 422, 'validation-failed')), ['/body/licensingBody']);
    const badRole = await world.call(world.a, 'POST', '/cargos-laborales', { json: positionBody({ suggestedRoles: ['Nurse!'] }) });
    assert.deepEqual(pointers(expectStatus(badRole, 422)), ['/body/suggestedRoles/0']);
  });

  it('corrects with If-Match: 428 without it, 412 when stale, and a changed code must be free', async () => {
    const created = await world.createPosition(world.a);
    const path = `/cargos-laborales/${created.body.id}`;
    expectStatus(await world.call(world.a, 'PATCH', path, { json: { name: 'Head nurse', reason: 'title' } }), 428, 'precondition-required');
    const fixed = expectStatus(
      await world.call(world.a, 'PATCH', path, { json: { name: 'Head nurse', reason: 'title' }, headers: { 'if-match': 'W/"0"' } }),
      200,
    );
    assert.equal(fixed.body.name, 'Head nurse');
    assert.equal(fixed.headers.get('etag'), 'W/"1"');
    expectStatus(
      await world.call(world.a, 'PATCH', path, { json: { name: 'Stale', reason: 'x' }, headers: { 'if-match': 'W/"0"' } }),
      412,
      'precondition-failed',
    );
    const taken = await world.createPosition(world.a);
    expectStatus(
      await world.call(world.a, 'PATCH', path, { json: { code: taken.body.code, reason: 'x' }, headers: { 'if-match': 'W/"1"' } }),
      409,
      'duplicate-code',
    );
    // A new code frees the old one.
    const newCode = unique('NEW-');
    expectStatus(
      await world.call(world.a, 'PATCH', path, { json: { code: newCode, reason: 'recoded' }, headers: { 'if-match': 'W/"1"' } }),
      200,
    );
    await world.createPosition(world.a, { code: created.body.code });
  });

  it('deactivates and reactivates with a reason, lists by status, and tells who, when and why in the history', async () => {
    const created = await world.createPosition(world.a);
    const id = created.body.id as string;
    const off = expectStatus(
      await world.call(world.a, 'POST', `/cargos-laborales/${id}/desactivacion`, { json: { reason: 'merged' } }),
      200,
    );
    assert.equal(off.body.status, 'inactive');
    expectStatus(
      await world.call(world.a, 'POST', `/cargos-laborales/${id}/desactivacion`, { json: { reason: 'again' } }),
      409,
      'position-inactive',
    );
    const inactive = expectStatus(await world.call(world.a, 'GET', '/cargos-laborales?status=inactive&limit=200'), 200);
    assert.ok(inactive.body.items.some((p: Json) => p.id === id));
    assert.ok(inactive.body.items.every((p: Json) => p.status === 'inactive'));
    expectStatus(await world.call(world.a, 'POST', `/cargos-laborales/${id}/reactivacion`, { json: { reason: 'reopened' } }), 200);
    const history = expectStatus(await world.call(world.a, 'GET', `/cargos-laborales/${id}/historial`), 200);
    assert.deepEqual(
      history.body.items.map((e: Json) => [e.type, e.reason, e.actor]),
      [
        ['JobPositionCreated', null, world.server.admin.userId],
        ['JobPositionDeactivated', 'merged', world.server.admin.userId],
        ['JobPositionReactivated', 'reopened', world.server.admin.userId],
      ],
    );
    assert.ok(history.body.items.every((e: Json) => typeof e.occurredAt === 'string'));
    const page = expectStatus(await world.call(world.a, 'GET', `/cargos-laborales/${id}/historial?limit=2`), 200);
    const rest = expectStatus(await world.call(world.a, 'GET', `/cargos-laborales/${id}/historial?cursor=${page.body.nextCursor}`), 200);
    assert.deepEqual(
      rest.body.items.map((e: Json) => e.type),
      ['JobPositionReactivated'],
    );
  });

  it("answers 404 for another company's position on every route with an id", async () => {
    const other = await world.createPosition(world.b);
    const path = `/cargos-laborales/${other.body.id}`;
    for (const [method, p, json, headers] of [
      ['GET', path, undefined, {}],
      ['PATCH', path, { name: 'x', reason: 'x' }, { 'if-match': 'W/"0"' }],
      ['POST', `${path}/desactivacion`, { reason: 'x' }, {}],
      ['POST', `${path}/reactivacion`, { reason: 'x' }, {}],
      ['GET', `${path}/historial`, undefined, {}],
    ] as const) {
      expectStatus(await world.call(world.a, method, p, { json, headers }), 404, 'not-found');
    }
  });

  it('refuses a user whose role lacks the permission (403)', async () => {
    const reader = await world.memberWith(['cargos-laborales:read']);
    expectStatus(await world.call(reader.token, 'GET', '/cargos-laborales'), 200);
    expectStatus(await world.call(reader.token, 'POST', '/cargos-laborales', { json: positionBody() }), 403);
    const none = await world.memberWith(['pacientes:read']);
    expectStatus(await world.call(none.token, 'GET', '/cargos-laborales'), 403);
  });
});
