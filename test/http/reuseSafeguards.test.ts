// The two-person identity check before a dialyzer's use over real HTTP (issue 21 item 14): two different people, each
// with their own authenticator code, both active members with a staff record; before the first use too.
import assert from 'node:assert/strict';
import { expectStatus, pointers, startFiltrosWorld, type Confirmer, type FiltrosWorld } from './filtrosWorld.js';
import { endedSessionSeeds, type EndedSessionOf } from './referenceSeeds.js';
import { unique } from './staffWorld.js';
import { grantMembership } from '../../src/commands/platform/platformWrites.js';

describe('Reuse safeguards: the two-person identity check', () => {
  let w: FiltrosWorld;
  let patientId: string;
  let nurses: [Confirmer, Confirmer];
  let endedOf: EndedSessionOf;
  before(async () => {
    w = await startFiltrosWorld();
    endedOf = endedSessionSeeds(w);
    patientId = await w.patient(w.a);
    nurses = await w.nurses();
  });
  after(async () => w?.close());

  /** A reusable dialyzer assigned to the patient, never used: its id. */
  const fresh = async (): Promise<string> => {
    const id = (await w.receive(w.a)).body.id as string;
    expectStatus(await w.post(w.a, id, 'asignacion', { patientId, baselineTcvMl: 100 }), 200);
    return id;
  };
  const check = (id: string, identityConfirmations: unknown) => w.post(w.a, id, 'controles-previos', { patientId, identityConfirmations });

  it('a reusable dialyzer is not used a first time before two people confirmed the patient', async () => {
    const id = await fresh();
    // A use by hand names an ended session that used the dialyzer (issue 21 item 10); its end's own use was refused alike.
    const use = { sessionId: await endedOf(w.a, patientId, { dialyzerId: id }), patientId };
    const refused = expectStatus(await w.post(w.a, id, 'usos', use), 409, 'pre-use-checks-missing');
    assert.deepEqual(refused.body.reasons, ['pre-use-checks-missing']);
    expectStatus(await check(id, await w.confirmations(nurses)), 200);
    expectStatus(await w.post(w.a, id, 'usos', use), 200);
  });

  it("refuses one person's code twice, and spends no code on a refusal", async () => {
    const id = await fresh();
    const [first, second] = await w.confirmations(nurses);
    const twice = await check(id, [first, first]);
    assert.deepEqual(pointers(expectStatus(twice, 422, 'validation-failed')), ['/body/identityConfirmations']);
    // Both codes are still good: the refusal spent neither.
    const done = expectStatus(await check(id, [first, second]), 200);
    assert.deepEqual(
      (done.body.checks as { identityConfirmedBy: string[] }).identityConfirmedBy,
      nurses.map((n) => n.userId),
    );
  });

  it('refuses an invitee who never activated the account, even with a staff record', async () => {
    const id = await fresh();
    const invited = expectStatus(
      await w.call(w.a, 'POST', '/usuarios', { json: { email: `${unique('invitee-')}@uno.example`, name: 'Invitee', roles: ['nurse'] } }),
      201,
    );
    const inviteeId = (invited.body.user as { id: string }).id;
    // A membership in force (granted by the platform) and a staff record: the account itself was never activated.
    const { services, admin } = w.server;
    const granted = await grantMembership(
      services,
      { companyId: admin.companyId, userId: inviteeId, roles: ['nurse'] },
      { actor: 'system' },
    );
    if (granted.position !== null) await services.projections.waitFor(granted.position);
    const position = (await w.createPosition(w.a)).body.id as string;
    await w.hire(w.a, position, { userId: inviteeId });
    const [first] = await w.confirmations([nurses[0]]);
    const refused = await check(id, [first, { userId: inviteeId, code: '123456' }]);
    assert.deepEqual(pointers(expectStatus(refused, 422, 'validation-failed')), ['/body/identityConfirmations/1/userId']);
  });

  it("refuses a code that is not the person's own current code, naming it", async () => {
    const id = await fresh();
    const [first, second] = await w.confirmations(nurses);
    const wrong = String((Number(second!.code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await check(id, [first, { userId: second!.userId, code: wrong }]);
    assert.deepEqual(pointers(expectStatus(refused, 422, 'validation-failed')), ['/body/identityConfirmations/1/code']);
  });
});
