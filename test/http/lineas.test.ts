// LineasArterial and LineasVenosa over real HTTP: lifecycle under the default (single-use) policy, reuse once the policy
// enables it, pairing, the floor queries, tenancy and permissions.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { registration } from './pacientesWorld.js';
import { expectStatus, startStaffWorld, unique, type Json, type StaffWorld } from './staffWorld.js';
import { endedSessionSeeds, type EndedSessionOf } from './referenceSeeds.js';

const A = '/lineas-arteriales';
const V = '/lineas-venosas';
const lineBody = (overrides: Json = {}): Json => ({
  model: 'AV-Set Plus',
  lot: 'L-2025-01',
  serial: unique('SER-'),
  primingVolumeMl: 140,
  reusable: true,
  receivedOn: '2025-01-10',
  ...overrides,
});

describe('LineasArterial and LineasVenosa over HTTP', () => {
  let w: StaffWorld;
  let endedOf: EndedSessionOf;
  before(async () => {
    w = await startStaffWorld();
    endedOf = endedSessionSeeds(w);
  });
  after(async () => w?.close());

  const patient = async (token: string, overrides: Json = {}): Promise<string> =>
    expectStatus(await w.call(token, 'POST', '/pacientes', { json: registration(overrides) }), 201).body.id as string;
  const receive = async (token: string, base: string, overrides: Json = {}) =>
    expectStatus(await w.call(token, 'POST', base, { json: lineBody(overrides) }), 201).body;
  const step = (token: string, base: string, id: unknown, path: string, json: Json) =>
    w.call(token, 'POST', `${base}/${String(id)}/${path}`, { json });
  /** A use by hand names an ended session of the patient that used this line (issue 20 item 8, issue 21 item 10). */
  const useOf = async (patientId: string, base: string, id: string): Promise<Json> => {
    const equipment = base === A ? { arterialLineId: id } : { venousLineId: id };
    return { sessionId: await endedOf(w.a, patientId, equipment), patientId };
  };
  const assignedLine = async (base: string, patientId: string) => {
    const line = await receive(w.a, base);
    expectStatus(await step(w.a, base, line.id, 'asignacion', { patientId }), 200);
    return line.id as string;
  };

  it('receives, assigns, uses once and discards a line under the default policy; serials are unique per kind', async () => {
    const serial = unique('UNQ-');
    const created = await w.call(w.a, 'POST', A, { json: lineBody({ serial }) });
    expectStatus(created, 201);
    const id = created.body.id as string;
    assert.equal(created.headers.get('location'), `${A}/${id}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.equal(created.body.status, 'in-stock');
    expectStatus(await w.call(w.a, 'POST', A, { json: lineBody({ serial: ` ${serial.toLowerCase()} ` }) }), 409, 'duplicate-serial');
    await receive(w.a, V, { serial });
    await receive(w.b, A, { serial });

    const p = await patient(w.a);
    const unknown = await step(w.a, A, id, 'asignacion', { patientId: randomUUID() });
    expectStatus(unknown, 422, 'validation-failed');
    const assigned = expectStatus(await step(w.a, A, id, 'asignacion', { patientId: p }), 200);
    assert.equal(assigned.body.maxUses, 1);
    assert.equal(assigned.body.status, 'assigned');
    expectStatus(await step(w.a, A, id, 'asignacion', { patientId: await patient(w.a) }), 409, 'bloodline-already-assigned');

    const used = expectStatus(await step(w.a, A, id, 'usos', await useOf(p, A, id)), 200);
    assert.equal(used.body.uses, 1);
    assert.equal(used.body.status, 'discarded');
    assert.equal(used.body.discardReason, 'single-use');
    expectStatus(await step(w.a, A, id, 'usos', await useOf(p, A, id)), 409, 'bloodline-discarded');

    const history = expectStatus(await w.call(w.a, 'GET', `${A}/${id}/historial`), 200);
    assert.deepEqual(
      (history.body.items as { type: string }[]).map((e) => e.type),
      ['BloodlineReceived', 'BloodlineAssignedToPatient', 'BloodlineUsed', 'BloodlineDiscarded'],
    );
  });

  it('refuses reuse under the default policy and allows it once PUT /empresas/actual/politica enables it', async () => {
    const p = await patient(w.a);
    const before = await assignedLine(V, p);
    const refused = await step(w.a, V, before, 'reprocesos', { disinfectant: 'Peracetic acid', integrity: 'passed' });
    expectStatus(refused, 409, 'bloodline-reuse-disabled');

    const policy = { settings: { bloodlineReuse: { enabled: true, maxUses: 2 } }, reason: 'Comité de reúso' };
    const put = await w.call(w.a, 'PUT', '/empresas/actual/politica', { json: policy, headers: { 'if-match': 'W/"-1"' } });
    expectStatus(put, 200);

    const id = await assignedLine(V, p);
    const line = expectStatus(await w.call(w.a, 'GET', `${V}/${id}`), 200);
    assert.equal(line.body.maxUses, 2);
    expectStatus(await step(w.a, V, id, 'usos', await useOf(await patient(w.a), V, id)), 409, 'bloodline-of-another-patient');
    const first = expectStatus(await step(w.a, V, id, 'usos', await useOf(p, V, id)), 200);
    assert.equal(first.body.status, 'in-use');

    const waiting = expectStatus(await w.call(w.a, 'GET', `${V}/listas?pacienteId=${p}`), 200);
    const mine = (waiting.body.items as { line: { id: string }; ready: boolean; reasons: string[] }[]).find((i) => i.line.id === id);
    assert.deepEqual(mine?.reasons, ['awaiting-reprocessing']);
    const near = expectStatus(await w.call(w.a, 'GET', `${V}/cerca-del-maximo`), 200);
    assert.ok((near.body.items as { id: string }[]).some((l) => l.id === id));

    const stored = expectStatus(await step(w.a, V, id, 'reprocesos', { disinfectant: 'Peracetic acid', integrity: 'passed' }), 200);
    assert.equal(stored.body.status, 'stored');
    // Before the reuse: a negative residual germicide test after rinsing, and the germicide's dwell (issue 21 item 14).
    const rinsing = expectStatus(await w.call(w.a, 'GET', `${V}/listas?pacienteId=${p}`), 200);
    const unrinsed = (rinsing.body.items as { line: { id: string }; reasons: string[] }[]).find((i) => i.line.id === id);
    assert.deepEqual(unrinsed?.reasons, ['residual-test-missing']);
    expectStatus(await step(w.a, V, id, 'usos', await useOf(p, V, id)), 409, 'residual-test-missing');
    expectStatus(await step(w.a, V, id, 'prueba-residual', { result: 'positive' }), 200);
    expectStatus(await step(w.a, V, id, 'usos', await useOf(p, V, id)), 409, 'residual-test-positive');
    expectStatus(await step(w.a, V, id, 'prueba-residual', { result: 'negative' }), 200);
    expectStatus(await step(w.a, V, id, 'usos', await useOf(p, V, id)), 409, 'dwell-time-too-short');
    w.server.clock.advance(11 * 3600_000 + 60_000); // peracetic acid: 11 h by default
    await w.refreshSessions();
    const ready = expectStatus(await w.call(w.a, 'GET', `${V}/listas?pacienteId=${p}`), 200);
    assert.equal((ready.body.items as { line: { id: string }; ready: boolean }[]).find((i) => i.line.id === id)?.ready, true);
    const last = expectStatus(await step(w.a, V, id, 'usos', await useOf(p, V, id)), 200);
    assert.equal(last.body.status, 'discarded');
    assert.equal(last.body.discardReason, 'max-uses-reached');

    // No reuse for an HBsAg-positive patient unless the policy allows it, as for dialyzers.
    const positive = await patient(w.a, { serology: [{ test: 'HBsAg', result: 'positive', sampleDate: '2025-01-15' }] });
    const theirs = await assignedLine(V, positive);
    expectStatus(await step(w.a, V, theirs, 'usos', await useOf(positive, V, theirs)), 200);
    const hbsag = await step(w.a, V, theirs, 'reprocesos', { disinfectant: 'Peracetic acid', integrity: 'passed' });
    expectStatus(hbsag, 409, 'hbsag-positive-no-reuse');
  });

  it('pairs an arterial line with a venous line of the same patient, recorded on both', async () => {
    const p = await patient(w.a);
    const arterial = await assignedLine(A, p);
    const venous = await assignedLine(V, p);
    const other = await assignedLine(V, await patient(w.a));
    expectStatus(await step(w.a, A, arterial, 'emparejamiento', { venosaId: other }), 409, 'bloodlines-of-different-patients');
    expectStatus(await step(w.a, A, arterial, 'emparejamiento', { venosaId: randomUUID() }), 422, 'validation-failed');
    const paired = expectStatus(await step(w.a, A, arterial, 'emparejamiento', { venosaId: venous }), 200);
    assert.equal(paired.body.partnerId, venous);
    const position = paired.headers.get('x-event-position')!;
    const venousRead = expectStatus(await w.call(w.a, 'GET', `${V}/${venous}?minPosition=${position}`), 200);
    assert.equal(venousRead.body.partnerId, arterial);
    expectStatus(await step(w.a, A, arterial, 'emparejamiento', { venosaId: venous }), 200);
    const arterialOnly = await w.memberWith(['lineas-arteriales:read', 'lineas-arteriales:write']);
    expectStatus(await step(arterialOnly.token, A, arterial, 'emparejamiento', { venosaId: venous }), 403, 'forbidden');
    const third = await assignedLine(V, p);
    expectStatus(await step(w.a, A, arterial, 'emparejamiento', { venosaId: third }), 409, 'bloodline-already-paired');
  });

  it('undoes the arterial side when the venous side refuses (compensation)', async () => {
    const p = await patient(w.a);
    const [first, second, venous] = [await assignedLine(A, p), await assignedLine(A, p), await assignedLine(V, p)];
    expectStatus(await step(w.a, A, first, 'emparejamiento', { venosaId: venous }), 200);
    // The venous line is already paired with the first arterial line: its own decider refuses the second one.
    const refused = await step(w.a, A, second, 'emparejamiento', { venosaId: venous });
    expectStatus(refused, 409, 'bloodline-already-paired');
    const after = expectStatus(await w.call(w.a, 'GET', `${A}/${second}/historial`), 200);
    assert.deepEqual((after.body.items as { type: string }[]).map((e) => e.type).slice(-2), ['BloodlinesPaired', 'BloodlinePairingUndone']);
    const venousRead = expectStatus(await w.call(w.a, 'GET', `${V}/${venous}`), 200);
    assert.equal(venousRead.body.partnerId, first);
  });

  it("answers 404 for another company's line and for a line of the other kind", async () => {
    const theirs = await receive(w.b, A);
    expectStatus(await w.call(w.a, 'GET', `${A}/${String(theirs.id)}`), 404);
    expectStatus(await step(w.a, A, theirs.id, 'descarte', { reason: 'other' }), 404);
    expectStatus(await w.call(w.a, 'GET', `${A}/${String(theirs.id)}/historial`), 404);
    const venous = await receive(w.a, V);
    expectStatus(await w.call(w.a, 'GET', `${A}/${String(venous.id)}`), 404);
    const discarded = expectStatus(await step(w.a, V, venous.id, 'descarte', { reason: 'damaged', note: 'Cracked housing' }), 200);
    assert.equal(discarded.body.status, 'discarded');
  });

  it('refuses writes to a receptionist (403)', async () => {
    const { services, admin } = w.server;
    const caller = { actor: 'system' };
    const account = { email: `${unique('recep')}@uno.example`, password: 'a long enough passphrase 3', totpSecret: newTotpSecret() };
    const user = await registerUser(services, { ...account, name: 'Recepción' }, caller);
    const granted = await grantMembership(services, { companyId: admin.companyId, userId: user.userId, roles: ['receptionist'] }, caller);
    if (granted.position !== null) await services.projections.waitFor(granted.position);
    const token = await w.server.signInAndSelect({ ...account, userId: user.userId, companyId: admin.companyId });
    expectStatus(await w.call(token, 'POST', A, { json: lineBody() }), 403);
    expectStatus(await w.call(token, 'POST', V, { json: lineBody() }), 403);
  });
});
