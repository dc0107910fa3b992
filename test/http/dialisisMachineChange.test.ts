// A machine changed mid-session (issue 21 item 8) over real HTTP on real stores: the new machine passes the start's
// interlocks and its own safety checks and is claimed; the old one gets the minutes it ran and awaits disinfection; the
// end gives the new one the rest. A machine in use by another session, or failing its checks, is refused, holding nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startMachineUse } from '../../src/commands/monitores/machineWrites.js';
import { releaseOrphanedSessionClaims } from '../../src/commands/dialisis/session/equipmentClaimsReconciliation.js';
import { reconciliationDeps } from '../../src/facts/dialisis/index.js';
import { LIMITS } from '../../src/limits.js';
import { allText, open } from './pdfRead.js';
import { expectStatus, pointers, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { MINUTE, safetyChecks, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';

describe('Dialisis sessions: a machine changed mid-session over HTTP', () => {
  let w: DialisisWorld;
  let s: SessionSteps;
  before(async () => {
    w = await startDialisisWorld();
    s = sessionSteps(w);
  });
  after(async () => w?.close());

  const change = (path: string, machineId: string, over: Json = {}): Promise<Answer> =>
    s.post(w.nurse.token, `${path}/cambio-maquina`, { machineId, reason: 'Blood leak alarm', safetyChecks: safetyChecks(), ...over });
  const machine = async (id: string): Promise<Json> => expectStatus(await s.get(`/monitores/${id}`), 200).body;
  const hours = (minutes: number): number => Math.max(0.01, Math.round((minutes / 60) * 100) / 100);

  it('claims the new machine after its checks, gives the old one its minutes, and the new one the rest at the end', async () => {
    const { path, machineId: first, sessionId } = await s.startedSession(await s.prescribedPatient());
    const busy = (await s.startedSession(await s.prescribedPatient())).machineId;
    const second = await s.readyMachine();
    const foreign = (await w.register(w.b)).body.id as string;
    await w.advance(60 * MINUTE);

    const taken = expectStatus(await change(path, busy), 409, 'machine-change-refused');
    assert.deepEqual(taken.body.reasons, { machine: ['not-available'] });
    const unsafe = await change(path, second, { safetyChecks: safetyChecks({ residualDisinfectantAbsent: false }) });
    expectStatus(unsafe, 409, 'safety-checks-failed');
    assert.deepEqual(pointers(expectStatus(await change(path, first), 422, 'validation-failed')), ['/body/machineId']);
    assert.deepEqual(pointers(expectStatus(await change(path, foreign), 422, 'validation-failed')), ['/body/machineId']);
    assert.equal((await machine(second)).status, 'available');

    const changed = expectStatus(await change(path, second), 200);
    assert.equal((changed.body.equipment as Json).machineId, second);
    const [record] = changed.body.machineChanges as Json[];
    assert.deepEqual([record!.fromMachineId, record!.machineId, record!.reason], [first, second, 'Blood leak alarm']);
    const onFirst = record!.minutesOnPrevious as number;
    assert.ok(onFirst >= 60 && onFirst < 65, `minutes on the first machine ${onFirst}`);
    await s.processed(changed);
    const old = await machine(first);
    assert.deepEqual([old.status, old.hourMeter, old.sessionCount], ['awaiting-disinfection', hours(onFirst), 1]);
    const now = await machine(second);
    assert.deepEqual([now.status, (now.currentSession as Json).sessionId], ['in-use', sessionId]);
    const sheet = await fetch(`${w.server.url}${path}/hoja`, { headers: { authorization: `Bearer ${w.a}` } });
    const text = await allText(await open(Buffer.from(await sheet.arrayBuffer())));
    const printed = `Cambio de máquina ${old.code as string} -> ${now.code as string} tras ${onFirst} min: Blood leak alarm`;
    assert.ok(text.includes(printed), `the sheet shows "${printed}": ${text}`);

    await w.advance(45 * MINUTE);
    const ended = expectStatus(await s.post(w.nurse.token, `${path}/fin`), 200);
    await s.processed(ended);
    const rest = (ended.body.effectiveMinutes as number) - onFirst;
    const after = await machine(second);
    assert.deepEqual([after.status, after.hourMeter, after.sessionCount], ['awaiting-disinfection', hours(rest), 1]);
    expectStatus(await change(path, await s.readyMachine()), 409, 'session-status');
  });

  it('releases a machine claimed for a change that never landed (a crash before MachineChanged), keeping the session its own', async () => {
    const { sessionId, machineId: own } = await s.startedSession(await s.prescribedPatient());
    const patientId = expectStatus(await s.get(s.sessionPath(sessionId)), 200).body.patientId as string;
    const stranded = await s.readyMachine();
    const tenantId = w.server.admin.companyId;
    const ctx = { tenantId, actor: 'test', sessionId: null, correlationId: randomUUID(), ip: null, userAgent: null };
    const claimed = await startMachineUse(w.server.services, { ...ctx, at: w.server.clock.now().toISOString() }, stranded, {
      sessionId,
      patientId,
    });
    await w.server.services.projections.waitFor(claimed.position!);
    assert.deepEqual((await releaseOrphanedSessionClaims(reconciliationDeps(w.server.services), tenantId)).released, []);

    await w.advance((LIMITS.sessionClaims.orphanGraceSeconds + 1) * 1000);
    const { released } = await releaseOrphanedSessionClaims(reconciliationDeps(w.server.services), tenantId);
    assert.deepEqual(
      released.filter((c) => c.sessionId === sessionId).map((c) => [c.kind, c.id]),
      [['machine', stranded]],
    );
    await w.server.services.projections.waitFor(await w.server.services.events.headPosition());
    assert.equal((await machine(stranded)).status, 'available');
    assert.equal((await machine(own)).status, 'in-use');
  });
});
