// Locations (sedes), rooms and stations over real HTTP: creation, If-Match corrections, closing, station status,
// history, isolation between companies, permissions, read-your-writes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { stationOf } from '../../src/queries/empresas/locationQueries.js';
import { expectStatus, pointers, startEmpresasWorld, type Answer, type EmpresasWorld } from './empresasWorld.js';

const SEDES = '/empresas/actual/sedes';

describe('Empresas: locations, rooms and stations', () => {
  let w: EmpresasWorld;
  before(async () => {
    w = await startEmpresasWorld();
  });
  after(async () => {
    await w.close();
  });

  const post = (token: string, path: string, json: unknown, headers: Record<string, string> = {}) =>
    w.call(token, 'POST', path, { json, headers });
  const etag = (answer: Answer) => answer.headers.get('etag')!;

  it('opens a location, adds a room and a station, and reads them back with minPosition', async () => {
    const opened = await w.openLocation(w.a);
    const id = opened.body.id as string;
    assert.equal(opened.headers.get('location'), `${SEDES}/${id}`);
    assert.equal(etag(opened), 'W/"0"');
    assert.equal(opened.body.status, 'open');

    const room = expectStatus(await post(w.a, `${SEDES}/${id}/salas`, { name: 'Sala HBV', isolation: 'HBV' }), 201);
    const roomId = room.body.createdId as string;
    assert.deepEqual(room.body.rooms, [{ roomId, name: 'Sala HBV', isolation: 'HBV' }]);

    const station = expectStatus(await post(w.a, `${SEDES}/${id}/puestos`, { code: 'P-01', roomId }), 201);
    const stationId = station.body.createdId as string;
    assert.deepEqual(station.body.stations, [{ stationId, code: 'P-01', roomId, status: 'active', statusReason: null }]);
    const position = station.headers.get('x-event-position')!;

    const read = expectStatus(await w.call(w.a, 'GET', `${SEDES}/${id}?minPosition=${encodeURIComponent(position)}`), 200);
    assert.equal(etag(read), 'W/"2"');
    assert.equal(read.body.stations.length, 1);
    const list = expectStatus(await w.call(w.a, 'GET', `${SEDES}?status=open&minPosition=${encodeURIComponent(position)}`), 200);
    assert.ok(list.body.items.some((l: { id: string }) => l.id === id));

    const scope = { services: w.server.services, auth: { tenantId: w.server.admin.companyId } };
    const info = await stationOf(scope, id, stationId);
    assert.equal(info?.code, 'P-01');
    assert.equal(info?.isolation, 'HBV');
    assert.equal(info?.status, 'active');
    assert.equal(await stationOf(scope, id, randomUUID()), null);
    assert.equal(await stationOf({ ...scope, auth: { tenantId: 'another' } }, id, stationId), null);
  });

  it('refuses a duplicate station code (409) and a room of nothing (422 naming the field)', async () => {
    const id = (await w.openLocation(w.a, { name: 'Sede Surco' })).body.id as string;
    const roomId = expectStatus(await post(w.a, `${SEDES}/${id}/salas`, { name: 'Sala A' }), 201).body.createdId as string;
    expectStatus(await post(w.a, `${SEDES}/${id}/puestos`, { code: 'P-01', roomId }), 201);
    expectStatus(await post(w.a, `${SEDES}/${id}/puestos`, { code: ' p-01 ', roomId }), 409, 'duplicate-station-code');
    const noRoom = expectStatus(await post(w.a, `${SEDES}/${id}/puestos`, { code: 'P-02', roomId: randomUUID() }), 422);
    assert.deepEqual(pointers(noRoom), ['/body/roomId']);
    const roomB = expectStatus(await post(w.a, `${SEDES}/${id}/salas`, { name: 'Sala B' }), 201);
    expectStatus(
      await w.call(w.a, 'PATCH', `${SEDES}/${id}/salas/${roomB.body.createdId}`, { json: { name: 'sala a' } }),
      409,
      'duplicate-room-name',
    );
    const renamed = expectStatus(
      await w.call(w.a, 'PATCH', `${SEDES}/${id}/salas/${roomB.body.createdId}`, { json: { name: 'Sala C' } }),
      200,
    );
    assert.deepEqual(
      renamed.body.rooms.map((r: { name: string }) => r.name),
      ['Sala A', 'Sala C'],
    );
    // An optional If-Match still protects: a stale one answers 412.
    expectStatus(await post(w.a, `${SEDES}/${id}/salas`, { name: 'Sala D' }, { 'if-match': etag(roomB) }), 412, 'precondition-failed');
    const invalid = expectStatus(await post(w.a, SEDES, { name: '', address: { city: 'Lima' } }), 422);
    assert.deepEqual(pointers(invalid), ['/body/address/line', '/body/name']);
  });

  it('corrects a location with If-Match (428 without, 412 when stale) and shows who/when/why in the history', async () => {
    const opened = await w.openLocation(w.a, { name: 'Sede Centro', registryCode: '00099999' });
    const id = opened.body.id as string;
    const patch = (json: unknown, headers: Record<string, string> = {}) => w.call(w.a, 'PATCH', `${SEDES}/${id}`, { json, headers });
    expectStatus(await patch({ name: 'Sede Lima Centro' }), 428, 'precondition-required');
    expectStatus(await patch({ name: 'Sede Lima Centro' }, { 'if-match': 'W/"5"' }), 412, 'precondition-failed');
    const corrected = expectStatus(
      await patch({ name: 'Sede Lima Centro', registryCode: null, reason: 'Nombre oficial' }, { 'if-match': etag(opened) }),
      200,
    );
    assert.equal(corrected.body.name, 'Sede Lima Centro');
    assert.equal(corrected.body.registryCode, null);
    assert.equal(etag(corrected), 'W/"1"');

    const history = expectStatus(await w.call(w.a, 'GET', `${SEDES}/${id}/historial?limit=1`), 200);
    assert.equal(history.body.items[0].type, 'LocationOpened');
    assert.ok(history.body.nextCursor);
    const next = expectStatus(await w.call(w.a, 'GET', `${SEDES}/${id}/historial?limit=1&cursor=${history.body.nextCursor}`), 200);
    const [entry] = next.body.items;
    assert.equal(entry.type, 'LocationCorrected');
    assert.equal(entry.actor, w.actorA);
    assert.equal(entry.reason, 'Nombre oficial');
    assert.deepEqual(entry.data.changes, { name: 'Sede Lima Centro', registryCode: null });
    assert.equal(next.body.nextCursor, null);
    expectStatus(await w.call(w.a, 'GET', `${SEDES}/${id}/historial?cursor=nonsense`), 400);
  });

  it('deactivates and reactivates a station with a reason; a closed location takes no new rooms or stations', async () => {
    const id = (await w.openLocation(w.a, { name: 'Sede Norte' })).body.id as string;
    const roomId = expectStatus(await post(w.a, `${SEDES}/${id}/salas`, { name: 'Sala A' }), 201).body.createdId as string;
    const stationId = expectStatus(await post(w.a, `${SEDES}/${id}/puestos`, { code: 'P-01', roomId }), 201).body.createdId as string;
    const station = `${SEDES}/${id}/puestos/${stationId}`;

    expectStatus(await post(w.a, `${station}/desactivacion`, {}), 422);
    const off = expectStatus(await post(w.a, `${station}/desactivacion`, { reason: 'Fuga en la toma de agua' }), 200);
    assert.deepEqual(off.body.stations[0], {
      stationId,
      code: 'P-01',
      roomId,
      status: 'inactive',
      statusReason: 'Fuga en la toma de agua',
    });
    expectStatus(await post(w.a, `${station}/desactivacion`, { reason: 'otra vez' }), 409, 'station-inactive');
    expectStatus(await post(w.a, `${station}/reactivacion`, { reason: 'Reparada' }), 200);
    expectStatus(await post(w.a, `${SEDES}/${id}/puestos/${randomUUID()}/desactivacion`, { reason: 'x' }), 404);

    const closed = expectStatus(await post(w.a, `${SEDES}/${id}/cierre`, { reason: 'Traslado a nuevo local' }), 200);
    assert.equal(closed.body.status, 'closed');
    assert.equal(closed.body.closedReason, 'Traslado a nuevo local');
    expectStatus(await post(w.a, `${SEDES}/${id}/salas`, { name: 'Sala B' }), 409, 'location-closed');
    expectStatus(await post(w.a, `${SEDES}/${id}/puestos`, { code: 'P-02', roomId }), 409, 'location-closed');
  });

  it('keeps registry codes unique within the company, not across companies', async () => {
    const first = await w.openLocation(w.a, { name: 'Sede Este', registryCode: '0007-7777' });
    expectStatus(await post(w.a, SEDES, { name: 'Sede Este 2', registryCode: ' 00077777' }), 409, 'duplicate-registry-code');
    await w.openLocation(w.b, { name: 'Sede Este de B', registryCode: '00077777' });
    // Moving the code to another location frees the old one; a refused move keeps it where it was.
    const second = await w.openLocation(w.a, { name: 'Sede Oeste', registryCode: '00088888' });
    const move = (id: string, code: string | null, tag: string) =>
      w.call(w.a, 'PATCH', `${SEDES}/${id}`, { json: { registryCode: code }, headers: { 'if-match': tag } });
    expectStatus(await move(second.body.id, '00077777', etag(second)), 409, 'duplicate-registry-code');
    const freed = expectStatus(await move(first.body.id, null, etag(first)), 200);
    assert.equal(freed.body.registryCode, null);
    expectStatus(await move(second.body.id, '00077777', etag(second)), 200);
    await w.openLocation(w.a, { name: 'Sede Oeste 2', registryCode: '00088888' });
  });

  it("answers 404 for another company's location, exactly like a missing one", async () => {
    const id = (await w.openLocation(w.a, { name: 'Sede Privada' })).body.id as string;
    const missing = expectStatus(await w.call(w.b, 'GET', `${SEDES}/${randomUUID()}`), 404);
    const foreign = expectStatus(await w.call(w.b, 'GET', `${SEDES}/${id}`), 404);
    assert.equal(foreign.body.detail, missing.body.detail);
    expectStatus(await post(w.b, `${SEDES}/${id}/salas`, { name: 'Intrusa' }), 404);
    expectStatus(await w.call(w.b, 'PATCH', `${SEDES}/${id}`, { json: { name: 'x' }, headers: { 'if-match': 'W/"0"' } }), 404);
    expectStatus(await w.call(w.b, 'GET', `${SEDES}/${id}/historial`), 404);
    const listB = expectStatus(await w.call(w.b, 'GET', SEDES), 200);
    assert.ok(!listB.body.items.some((l: { id: string }) => l.id === id));
  });

  it('lets a reader list and read locations but not open or change them (403)', async () => {
    const id = (await w.openLocation(w.a, { name: 'Sede Sur' })).body.id as string;
    expectStatus(await w.call(w.reader, 'GET', SEDES), 200);
    expectStatus(await w.call(w.reader, 'GET', `${SEDES}/${id}`), 200);
    expectStatus(await post(w.reader, SEDES, { name: 'Sede Nueva' }), 403, 'forbidden');
    expectStatus(await post(w.reader, `${SEDES}/${id}/salas`, { name: 'Sala X' }), 403, 'forbidden');
  });
});
