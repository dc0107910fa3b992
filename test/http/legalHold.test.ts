// A legal hold on a patient over HTTP: the auditor places and lifts it with reasons, the history shows both, a nurse
// may not, another company's patient is a 404; the hold is recorded as events of its own stream.
import assert from 'node:assert/strict';
import { grantMembership, registerUser } from '../../src/commands/platform/platformWrites.js';
import { newTotpSecret } from '../../src/auth/totp.js';
import { legalHoldStream } from '../../src/commands/pacientes/legalHoldEvents.js';
import type { TestServer } from '../support/harness.js';
import { expectStatus, pointers, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';

/** A user of company A holding one built-in role, signed in. */
async function memberOf(server: TestServer, email: string, role: string): Promise<{ token: string; userId: string }> {
  const { services, admin } = server;
  const caller = { actor: 'system' };
  const totpSecret = newTotpSecret();
  const password = 'quiet ledger of some length';
  const user = await registerUser(services, { email, name: role, password, totpSecret }, caller);
  const granted = await grantMembership(services, { companyId: admin.companyId, userId: user.userId, roles: [role] }, caller);
  if (granted.position !== null) await services.projections.waitFor(granted.position);
  const token = await server.signInAndSelect({ email, password, totpSecret, userId: user.userId, companyId: admin.companyId });
  return { token, userId: user.userId };
}

describe('Pacientes: legal hold', () => {
  let w: PacientesWorld;
  let auditor: { token: string; userId: string };
  let nurse: { token: string; userId: string };
  let patientId: string;
  const hold = (id: string) => `/pacientes/${id}/retencion-legal`;

  before(async () => {
    w = await startPacientesWorld();
    auditor = await memberOf(w.server, 'auditor@clinic.example', 'auditor');
    nurse = await memberOf(w.server, 'nurse@clinic.example', 'nurse');
    patientId = (await w.register(w.a)).body.id;
  });
  after(async () => {
    await w.close();
  });

  it('answers a patient never held: held false, empty history', async () => {
    const answer = expectStatus(await w.call(auditor.token, 'GET', hold(patientId)), 200);
    assert.deepEqual(answer.body, { patientId, held: false, current: null, revision: -1, history: [] });
  });

  it('lets the auditor place a hold with a reason and a reference, then refuses a second one (409)', async () => {
    const placed = expectStatus(
      await w.call(auditor.token, 'POST', hold(patientId), { json: { held: true, reason: 'Demanda 123-2026', reference: 'EXP-123-2026' } }),
      200,
    );
    assert.equal(placed.body.held, true);
    assert.equal(placed.body.current.placedBy, auditor.userId);
    assert.equal(placed.body.current.reason, 'Demanda 123-2026');
    assert.equal(placed.body.current.reference, 'EXP-123-2026');
    assert.ok(placed.headers.get('x-event-position'));
    assert.equal(placed.headers.get('etag'), 'W/"0"');
    expectStatus(await w.call(w.a, 'POST', hold(patientId), { json: { held: true, reason: 'Otra demanda' } }), 409, 'legal-hold-in-force');

    const events = await w.server.services.events.readStream(legalHoldStream(w.server.admin.companyId, patientId));
    assert.deepEqual(
      events.map((e) => [e.type, e.metadata.actor, e.metadata.reason]),
      [['LegalHoldPlaced', auditor.userId, 'Demanda 123-2026']],
    );
  });

  it('refuses a blank reason (422 naming it) and lets the administrator lift the hold (held false); the history shows both', async () => {
    const blank = await w.call(w.a, 'POST', hold(patientId), { json: { held: false, reason: '   ' } });
    expectStatus(blank, 422);
    assert.deepEqual(pointers(blank), ['/body/reason']);
    const lifted = expectStatus(await w.call(w.a, 'POST', hold(patientId), { json: { held: false, reason: 'Caso archivado' } }), 200);
    assert.equal(lifted.body.held, false);
    assert.equal(lifted.body.current, null);
    assert.deepEqual(
      lifted.body.history.map((h: { type: string; actor: string; reason: string }) => [h.type, h.actor, h.reason]),
      [
        ['LegalHoldPlaced', auditor.userId, 'Demanda 123-2026'],
        ['LegalHoldLifted', w.actorA, 'Caso archivado'],
      ],
    );
    expectStatus(await w.call(w.a, 'POST', hold(patientId), { json: { held: false, reason: 'Otra vez' } }), 409, 'no-legal-hold');
    const read = expectStatus(await w.call(auditor.token, 'GET', hold(patientId)), 200);
    assert.equal(read.body.revision, 1);
  });

  it("refuses a nurse (403 without pacientes:legal-hold) and hides another company's patient (404)", async () => {
    expectStatus(await w.call(nurse.token, 'POST', hold(patientId), { json: { held: true, reason: 'x' } }), 403, 'forbidden');
    expectStatus(await w.call(nurse.token, 'GET', hold(patientId)), 403, 'forbidden');
    expectStatus(await w.call(w.b, 'GET', hold(patientId)), 404, 'not-found');
    expectStatus(await w.call(w.b, 'POST', hold(patientId), { json: { held: true, reason: 'Demanda' } }), 404, 'not-found');
    expectStatus(await w.call(w.b, 'POST', hold(patientId), { json: { held: false, reason: 'x' } }), 404, 'not-found');
    const none = await w.server.services.events.readStream(legalHoldStream(w.server.admin.companyId, patientId));
    assert.equal(none.length, 2, 'no event from the refused attempts');
  });
});
