// Colaboradores end to end over real HTTP: hiring under an active position with a unique document, corrections with
// If-Match, sub-resources, the licence filters on the service clock, tenancy, permissions and history.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { expectStatus, nextDocument, pointers, staffBody, startStaffWorld, type Json, type StaffWorld } from './staffWorld.js';

const dayOf = (date: Date, plusDays = 0): string => new Date(date.getTime() + plusDays * 86_400_000).toISOString().slice(0, 10);

describe('Colaboradores over HTTP: staff records', () => {
  let world: StaffWorld;
  let nurseId: string;
  before(async () => {
    world = await startStaffWorld();
    nurseId = (await world.createPosition(world.a)).body.id as string;
  });
  after(async () => world?.close());

  it('hires and reads back, with ETag, Location and the licence as its own event', async () => {
    const hired = await world.hire(world.a, nurseId, { serology: [{ test: 'HBsAg', result: 'negative', takenOn: '2024-01-10' }] });
    const id = hired.body.id as string;
    assert.equal(hired.headers.get('location'), `/colaboradores/${id}`);
    assert.equal(hired.headers.get('etag'), 'W/"1"');
    assert.equal(hired.body.status, 'active');
    assert.equal(hired.body.licence.body, 'CEP');
    assert.equal(hired.body.serologyCount, 1);
    const read = expectStatus(await world.call(world.a, 'GET', `/colaboradores/${id}`), 200);
    assert.equal(read.headers.get('etag'), 'W/"1"');
    assert.equal(read.body.positionId, nurseId);
    assert.equal(read.body.sortName, undefined);
  });

  it("refuses an unknown position, another company's, and a missing required licence (422 naming the field)", async () => {
    const unknown = await world.call(world.a, 'POST', '/colaboradores', { json: staffBody(randomUUID()) });
    assert.deepEqual(pointers(expectStatus(unknown, 422, 'validation-failed')), ['/body/positionId']);
    const foreign = (await world.createPosition(world.b)).body.id as string;
    assert.deepEqual(pointers(expectStatus(await world.call(world.a, 'POST', '/colaboradores', { json: staffBody(foreign) }), 422)), [
      '/body/positionId',
    ]);
    const unlicensed = await world.call(world.a, 'POST', '/colaboradores', { json: staffBody(nurseId, { licence: undefined }) });
    assert.deepEqual(pointers(expectStatus(unlicensed, 422)), ['/body/licence']);
  });

  it('gives a deactivated position to no one new, while its staff keep it', async () => {
    const position = (await world.createPosition(world.a)).body.id as string;
    const holder = await world.hire(world.a, position);
    expectStatus(await world.call(world.a, 'POST', `/cargos-laborales/${position}/desactivacion`, { json: { reason: 'closed' } }), 200);
    const refused = await world.call(world.a, 'POST', '/colaboradores', { json: staffBody(position) });
    assert.deepEqual(pointers(expectStatus(refused, 422, 'validation-failed')), ['/body/positionId']);
    const other = await world.hire(world.a, nurseId);
    const moved = await world.call(world.a, 'POST', `/colaboradores/${other.body.id}/cambio-cargo`, { json: { positionId: position } });
    assert.deepEqual(pointers(expectStatus(moved, 422)), ['/body/positionId']);
    const kept = expectStatus(await world.call(world.a, 'GET', `/colaboradores/${holder.body.id}`), 200);
    assert.equal(kept.body.positionId, position);
    const byPosition = expectStatus(await world.call(world.a, 'GET', `/colaboradores?cargoId=${position}`), 200);
    assert.deepEqual(
      byPosition.body.items.map((s: Json) => s.id),
      [holder.body.id],
    );
  });

  it('keeps documents unique within a company (409), also under two concurrent hires', async () => {
    const number = nextDocument();
    await world.hire(world.a, nurseId, { document: { type: 'DNI', number } });
    const dotted = `${number.slice(0, 2)}.${number.slice(2)}`;
    const again = await world.call(world.a, 'POST', '/colaboradores', {
      json: staffBody(nurseId, { document: { type: 'DNI', number: dotted } }),
    });
    expectStatus(again, 409, 'duplicate-document');
    const racing = nextDocument();
    const answers = await Promise.all(
      [0, 1].map(() =>
        world.call(world.a, 'POST', '/colaboradores', { json: staffBody(nurseId, { document: { type: 'CE', number: racing } }) }),
      ),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409]);
  });

  it('corrects with If-Match (428 without it, 412 when stale); a new document frees the old one', async () => {
    const hired = await world.hire(world.a, nurseId);
    const path = `/colaboradores/${hired.body.id}`;
    expectStatus(await world.call(world.a, 'PATCH', path, { json: { givenNames: 'Rosa', reason: 'typo' } }), 428, 'precondition-required');
    const document = { type: 'DNI', number: nextDocument() };
    const fixed = expectStatus(
      await world.call(world.a, 'PATCH', path, {
        json: { givenNames: 'Rosa', document, reason: 'typo' },
        headers: { 'if-match': 'W/"1"' },
      }),
      200,
    );
    assert.equal(fixed.body.givenNames, 'Rosa');
    assert.equal(fixed.headers.get('etag'), 'W/"2"');
    expectStatus(
      await world.call(world.a, 'PATCH', path, { json: { familyNames: 'X', reason: 'x' }, headers: { 'if-match': 'W/"1"' } }),
      412,
      'precondition-failed',
    );
    await world.hire(world.a, nurseId, { document: hired.body.document });
  });

  it('renews the licence, records serology and doses, changes position, terminates; then only corrections', async () => {
    const hired = await world.hire(world.a, nurseId);
    const path = `/colaboradores/${hired.body.id}`;
    const renewed = expectStatus(
      await world.call(world.a, 'POST', `${path}/licencia`, { json: { body: 'CEP', number: '999', expiresOn: '2031-12-31' } }),
      200,
    );
    assert.equal(renewed.body.licence.expiresOn, '2031-12-31');
    const earlier = await world.call(world.a, 'POST', `${path}/licencia`, {
      json: { body: 'CEP', number: '999', expiresOn: '2026-01-01' },
    });
    assert.deepEqual(pointers(expectStatus(earlier, 422)), ['/body/expiresOn']);
    expectStatus(
      await world.call(world.a, 'POST', `${path}/serologias`, { json: { test: 'antiHBs', result: 'positive', takenOn: '2025-01-01' } }),
      201,
    );
    expectStatus(await world.call(world.a, 'POST', `${path}/vacunas-hbv`, { json: { dose: 1, givenOn: '2020-01-01' } }), 201);
    expectStatus(
      await world.call(world.a, 'POST', `${path}/vacunas-hbv`, { json: { dose: 1, givenOn: '2020-02-01' } }),
      409,
      'dose-already-recorded',
    );
    const other = (await world.createPosition(world.a)).body.id as string;
    const moved = expectStatus(
      await world.call(world.a, 'POST', `${path}/cambio-cargo`, { json: { positionId: other, reason: 'promoted' } }),
      200,
    );
    assert.equal(moved.body.positionId, other);
    expectStatus(await world.call(world.a, 'POST', `${path}/cese`, { json: { terminationDate: '2099-01-01', reason: 'x' } }), 422);
    const gone = expectStatus(
      await world.call(world.a, 'POST', `${path}/cese`, { json: { terminationDate: '2025-01-31', reason: 'resigned' } }),
      200,
    );
    assert.equal(gone.body.status, 'terminated');
    expectStatus(
      await world.call(world.a, 'POST', `${path}/vacunas-hbv`, { json: { dose: 2, givenOn: '2020-03-01' } }),
      409,
      'staff-terminated',
    );
    const stale = await world.call(world.a, 'POST', `${path}/serologias`, {
      json: { test: 'HIV', result: 'negative', takenOn: '2025-01-01' },
      headers: { 'if-match': 'W/"0"' },
    });
    expectStatus(stale, 412);
    const cesados = expectStatus(await world.call(world.a, 'GET', '/colaboradores?estado=cesado'), 200);
    assert.deepEqual(
      cesados.body.items.map((s: Json) => s.id),
      [hired.body.id],
    );

    const history = expectStatus(await world.call(world.a, 'GET', `${path}/historial`), 200);
    assert.deepEqual(
      history.body.items.map((e: Json) => e.type),
      [
        'StaffHired',
        'StaffLicenseRegistered',
        'StaffLicenseRenewed',
        'StaffSerologyRecorded',
        'StaffVaccinationRecorded',
        'StaffPositionChanged',
        'StaffTerminated',
      ],
    );
    const last = history.body.items.at(-1) as Json;
    assert.equal(last.reason, 'resigned');
    assert.equal(last.actor, world.server.admin.userId);
    assert.match(last.occurredAt as string, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(history.body.items[5].reason, 'promoted');
  });

  it('rehires a terminated record, the earlier employment kept in the history', async () => {
    const hired = await world.hire(world.a, nurseId);
    const path = `/colaboradores/${hired.body.id}`;
    expectStatus(
      await world.call(world.a, 'POST', `${path}/reingreso`, { json: { hireDate: '2025-03-01', reason: 'x' } }),
      409,
      'staff-not-terminated',
    );
    expectStatus(
      await world.call(world.a, 'POST', `${path}/cese`, { json: { terminationDate: '2025-01-31', reason: 'contract ended' } }),
      200,
    );
    const early = await world.call(world.a, 'POST', `${path}/reingreso`, { json: { hireDate: '2025-01-01', reason: 'x' } });
    assert.deepEqual(pointers(expectStatus(early, 422)), ['/body/hireDate']);
    const back = expectStatus(
      await world.call(world.a, 'POST', `${path}/reingreso`, { json: { hireDate: '2025-03-01', reason: 'new contract' } }),
      200,
    );
    assert.equal(back.body.status, 'active');
    assert.equal(back.body.hireDate, '2025-03-01');
    assert.equal(back.body.terminationDate, undefined);
    const history = expectStatus(await world.call(world.a, 'GET', `${path}/historial`), 200);
    assert.deepEqual(
      history.body.items.slice(-2).map((e: Json) => [e.type, e.reason]),
      [
        ['StaffTerminated', 'contract ended'],
        ['StaffRehired', 'new contract'],
      ],
    );
  });

  it('replays a retried hire with the same Idempotency-Key instead of hiring twice', async () => {
    const body = staffBody(nurseId);
    const headers = { 'idempotency-key': `hire-${randomUUID()}` };
    const first = expectStatus(await world.call(world.a, 'POST', '/colaboradores', { json: body, headers }), 201);
    const again = expectStatus(await world.call(world.a, 'POST', '/colaboradores', { json: body, headers }), 201);
    assert.equal(again.body.id, first.body.id);
  });

  it('links a user to one staff record only, and only a member of the company', async () => {
    const userId = await world.newMember();
    const first = await world.hire(world.a, nurseId, { userId });
    assert.equal(first.body.userId, userId);
    const second = await world.hire(world.a, nurseId);
    const taken = await world.call(world.a, 'POST', `/colaboradores/${second.body.id}/usuario`, { json: { userId } });
    expectStatus(taken, 409, 'user-already-linked');
    const stranger = await world.call(world.a, 'POST', `/colaboradores/${second.body.id}/usuario`, { json: { userId: randomUUID() } });
    assert.deepEqual(pointers(expectStatus(stranger, 422)), ['/body/userId']);
    assert.equal(stranger.body.detail, 'userId must be a user account that belongs to this company');
    const elsewhere = await world.call(world.b, 'POST', `/colaboradores/${second.body.id}/usuario`, { json: { userId: randomUUID() } });
    assert.equal(expectStatus(elsewhere, 404, 'not-found').body.detail, 'Staff member not found');
    const hired = await world.call(world.a, 'POST', '/colaboradores', { json: staffBody(nurseId, { userId: randomUUID() }) });
    assert.deepEqual(pointers(expectStatus(hired, 422)), ['/body/userId']);
    // Relinking the first record to someone else frees the user.
    const other = await world.newMember();
    expectStatus(await world.call(world.a, 'POST', `/colaboradores/${first.body.id}/usuario`, { json: { userId: other } }), 200);
    const linked = expectStatus(await world.call(world.a, 'POST', `/colaboradores/${second.body.id}/usuario`, { json: { userId } }), 200);
    assert.equal(linked.body.userId, userId);
  });

  it("answers 404 for another company's staff on every route with an id", async () => {
    const foreignPosition = (await world.createPosition(world.b)).body.id as string;
    const other = await world.hire(world.b, foreignPosition);
    const path = `/colaboradores/${other.body.id}`;
    const calls: [string, string, unknown?, Record<string, string>?][] = [
      ['GET', path],
      ['PATCH', path, { givenNames: 'x', reason: 'x' }, { 'if-match': 'W/"1"' }],
      ['GET', `${path}/historial`],
      ['POST', `${path}/licencia`, { body: 'CEP', number: '1', expiresOn: '2030-01-01' }],
      ['POST', `${path}/serologias`, { test: 'HIV', result: 'negative', takenOn: '2025-01-01' }],
      ['POST', `${path}/vacunas-hbv`, { dose: 3, givenOn: '2025-01-01' }],
      ['POST', `${path}/cambio-cargo`, { positionId: nurseId }],
      ['POST', `${path}/usuario`, { userId: world.server.admin.userId }],
      ['POST', `${path}/cese`, { terminationDate: '2025-01-31', reason: 'x' }],
      ['POST', `${path}/reingreso`, { hireDate: '2025-03-01', reason: 'x' }],
    ];
    for (const [method, p, json, headers] of calls) {
      expectStatus(await world.call(world.a, method, p, { json, headers }), 404, 'not-found');
    }
  });

  it('refuses a user whose role lacks the permission (403)', async () => {
    const reader = await world.memberWith(['colaboradores:read']);
    expectStatus(await world.call(reader.token, 'GET', '/colaboradores'), 200);
    expectStatus(await world.call(reader.token, 'POST', '/colaboradores', { json: staffBody(nurseId) }), 403);
    const none = await world.memberWith(['cargos-laborales:read']);
    expectStatus(await world.call(none.token, 'GET', '/colaboradores'), 403);
    expectStatus(await world.call(none.token, 'GET', '/colaboradores/firma-habilitada'), 403);
  });
});

// Its own server: the clock moves days ahead, which ends every session of the other suite.
describe('Colaboradores over HTTP: licence filters on the service clock', () => {
  let world: StaffWorld;
  before(async () => {
    world = await startStaffWorld();
  });
  after(async () => world?.close());

  it('filters licences vencida / por-vencer against the service clock', async () => {
    const { server } = world;
    const position = (await world.createPosition(world.a)).body.id as string;
    const today = server.clock.now();
    const licence = (days: number) => ({ body: 'CMP', number: nextDocument(), expiresOn: dayOf(today, days) });
    const expired = await world.hire(world.a, position, { licence: licence(-1) });
    const soon = await world.hire(world.a, position, { licence: licence(10) });
    const later = await world.hire(world.a, position, { licence: licence(100) });
    const ids = async (token: string, query: string) =>
      expectStatus(await world.call(token, 'GET', `/colaboradores?cargoId=${position}&${query}`), 200).body.items.map((s: Json) => s.id);
    assert.deepEqual(await ids(world.a, 'licencia=vencida'), [expired.body.id]);
    assert.deepEqual(await ids(world.a, 'licencia=por-vencer'), [soon.body.id]);
    assert.deepEqual(await ids(world.a, 'licencia=por-vencer&dias=120'), [soon.body.id, later.body.id]);
    expectStatus(await world.call(world.a, 'GET', '/colaboradores?licencia=por-vencer&dias=366'), 422);

    server.clock.advance(11 * 86_400_000);
    const token = await server.signInAndSelect(server.admin);
    assert.deepEqual(await ids(token, 'licencia=vencida'), [expired.body.id, soon.body.id]);
    assert.deepEqual(await ids(token, 'licencia=por-vencer&dias=89'), [later.body.id]);
  });
});
