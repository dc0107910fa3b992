// Equipment claims at session start over real HTTP on real stores: a session claims its machine, dialyzer and lines (as
// the session start will), the floor sees them in use by another session, and the reconciliation gives back the claims
// of a session that never started once the grace has passed, leaving a started session's alone.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../../src/commands/handleCommand.js';
import { startMachineUse } from '../../src/commands/monitores/machineWrites.js';
import { reserveDialyzerForSession } from '../../src/commands/filtros-dialisis/dialyzerWrites.js';
import { reserveBloodlineForSession } from '../../src/commands/lineas/bloodlineWrites.js';
import { releaseOrphanedSessionClaims } from '../../src/commands/dialisis/session/equipmentClaimsReconciliation.js';
import { reconciliationDeps } from '../../src/facts/dialisis/index.js';
import { sessionStream } from '../../src/commands/dialisis/session/sessionEvents.js';
import { LIMITS } from '../../src/limits.js';
import { dialyzerBody } from './filtrosWorld.js';
import { expectStatus, startMonitoresWorld, unique, type Json, type MonitoresWorld } from './monitoresWorld.js';

describe('Equipment claims at session start', () => {
  let w: MonitoresWorld;
  before(async () => {
    w = await startMonitoresWorld();
  });
  after(async () => w?.close());

  const services = () => w.server.services;
  const tenantA = () => w.server.admin.companyId;
  const ctx = (): CommandContext => ({
    tenantId: tenantA(),
    actor: 'test-session-start',
    sessionId: null,
    correlationId: randomUUID(),
    ip: null,
    userAgent: null,
    at: w.server.clock.now().toISOString(),
  });
  const settled = async (result: { position: bigint | null }) => {
    if (result.position !== null) await services().projections.waitFor(result.position);
  };
  const get = async (path: string): Promise<Json> => expectStatus(await w.call(w.a, 'GET', path), 200).body;

  /** A patient with an available machine, a dialyzer and both lines assigned to them (all of company A). */
  async function floor() {
    const patientId = await w.patient(w.a);
    // Installed yesterday: no preventive maintenance due.
    const installDate = new Date(w.server.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const machineId = (await w.register(w.a, { installDate, warrantyEnd: '2099-01-01' })).body.id as string;
    // Single use: a reusable one would first need two people's identity check (filtrosDialisis, reuseSafeguards suites).
    const dialyzer = dialyzerBody({ reusable: false });
    const dialyzerId = expectStatus(await w.call(w.a, 'POST', '/filtros-dialisis', { json: dialyzer }), 201).body.id as string;
    expectStatus(await w.call(w.a, 'POST', `/filtros-dialisis/${dialyzerId}/asignacion`, { json: { patientId, baselineTcvMl: 100 } }), 200);
    const line = async (base: string) => {
      const json = { model: 'AV-Set', lot: 'L1', serial: unique('SER-'), primingVolumeMl: 140, reusable: true, receivedOn: '2025-01-10' };
      const id = expectStatus(await w.call(w.a, 'POST', base, { json }), 201).body.id as string;
      expectStatus(await w.call(w.a, 'POST', `${base}/${id}/asignacion`, { json: { patientId } }), 200);
      return id;
    };
    return { patientId, machineId, dialyzerId, arterialId: await line('/lineas-arteriales'), venousId: await line('/lineas-venosas') };
  }
  type Floor = Awaited<ReturnType<typeof floor>>;

  async function claimAll(f: Floor, sessionId: string) {
    const use = { sessionId, patientId: f.patientId };
    await settled(await startMachineUse(services(), ctx(), f.machineId, use));
    await settled(await reserveDialyzerForSession(services(), ctx(), f.dialyzerId, use));
    await settled(await reserveBloodlineForSession(services(), ctx(), 'arterial', f.arterialId, use));
    await settled(await reserveBloodlineForSession(services(), ctx(), 'venous', f.venousId, use));
  }

  /** What the session start appends last: the session's own SessionStarted event. */
  async function recordSessionStarted(f: Floor, sessionId: string) {
    const at = w.server.clock.now().toISOString();
    const metadata = {
      tenantId: tenantA(),
      actor: 'test',
      sessionId: null,
      correlationId: randomUUID(),
      causationId: null,
      commandId: randomUUID(),
      occurredAt: at,
      ip: null,
      userAgent: null,
      reason: null,
    };
    const data = {
      machineId: f.machineId,
      dialyzerId: f.dialyzerId,
      arterialLineId: f.arterialId,
      venousLineId: f.venousId,
      startedAt: at,
    };
    await services().events.appendToStream(
      sessionStream(tenantA(), sessionId),
      [{ id: randomUUID(), type: 'SessionStarted', data: { ...data, prescription: {}, warnings: [] }, metadata }],
      { expectedRevision: 'no_stream' },
    );
  }

  it('shows the claimed equipment in use by the session, and the floor queries say in use by another session', async () => {
    const f = await floor();
    const sessionId = randomUUID();
    await claimAll(f, sessionId);

    const machine = await get(`/monitores/${f.machineId}`);
    assert.deepEqual([machine.status, (machine.currentSession as Json).sessionId], ['in-use', sessionId]);
    const verdict = await get(`/monitores/${f.machineId}/puede-iniciar?pacienteId=${f.patientId}`);
    assert.equal(verdict.allowed, false);
    assert.deepEqual(verdict.reasons, [{ code: 'not-available', message: 'the machine is in use by another session' }]);

    const dialyzer = await get(`/filtros-dialisis/${f.dialyzerId}`);
    assert.deepEqual([dialyzer.status, (dialyzer.reservation as Json).sessionId], ['in-use', sessionId]);
    const aptitude = await get(`/filtros-dialisis/${f.dialyzerId}/aptitud?pacienteId=${f.patientId}`);
    assert.deepEqual(aptitude, { ready: false, reasons: ['in-use-by-another-session'] });
    const listed = await get(`/filtros-dialisis/listos?pacienteId=${f.patientId}`);
    assert.deepEqual(
      (listed.items as Json[]).map((i) => i.reasons),
      [['in-use-by-another-session']],
    );

    for (const base of ['/lineas-arteriales', '/lineas-venosas']) {
      const ready = await get(`${base}/listas?pacienteId=${f.patientId}`);
      const [item] = ready.items as Json[];
      assert.deepEqual([(item!.line as Json).status, item!.reasons], ['in-use', ['in-use-by-another-session']]);
    }
    // Another company sees none of it.
    expectStatus(await w.call(w.b, 'GET', `/filtros-dialisis/${f.dialyzerId}`), 404);
  });

  it('releases the claims of a session that never started once the grace has passed; a started session keeps its own', async () => {
    const orphan = await floor();
    const orphanSession = randomUUID();
    await claimAll(orphan, orphanSession);
    const started = await floor();
    const startedSession = randomUUID();
    await claimAll(started, startedSession);
    await recordSessionStarted(started, startedSession);

    // Within the grace a start may still be finishing: nothing is released.
    assert.deepEqual((await releaseOrphanedSessionClaims(reconciliationDeps(services()), tenantA())).released, []);
    w.server.clock.advance((LIMITS.sessionClaims.orphanGraceSeconds + 1) * 1000);
    // A run for another company never reaches company A's records.
    const companyB = expectStatus(await w.call(w.b, 'GET', '/empresas/actual'), 200).body.id as string;
    assert.deepEqual((await releaseOrphanedSessionClaims(reconciliationDeps(services()), companyB)).released, []);

    const { released } = await releaseOrphanedSessionClaims(reconciliationDeps(services()));
    const orphaned = released.filter((c) => c.sessionId === orphanSession);
    assert.deepEqual(orphaned.map((c) => c.kind).sort(), ['arterial', 'dialyzer', 'machine', 'venous']);
    assert.equal(released.filter((c) => c.sessionId === startedSession).length, 0);
    await services().projections.waitFor(await services().events.headPosition());

    // Free again, as before the claim: no hours, no session, no use counted.
    const machine = await get(`/monitores/${orphan.machineId}`);
    assert.deepEqual([machine.status, machine.currentSession, machine.hourMeter, machine.sessionCount], ['available', null, 0, 0]);
    assert.equal((await get(`/monitores/${orphan.machineId}/puede-iniciar?pacienteId=${orphan.patientId}`)).allowed, true);
    const dialyzer = await get(`/filtros-dialisis/${orphan.dialyzerId}`);
    assert.deepEqual([dialyzer.status, dialyzer.uses, 'reservation' in dialyzer], ['assigned', 0, false]);
    assert.deepEqual(await get(`/filtros-dialisis/${orphan.dialyzerId}/aptitud?pacienteId=${orphan.patientId}`), {
      ready: true,
      reasons: [],
    });
    for (const [base, id] of [
      ['/lineas-arteriales', orphan.arterialId],
      ['/lineas-venosas', orphan.venousId],
    ] as const) {
      const line = await get(`${base}/${id}`);
      assert.deepEqual([line.status, line.uses, 'reservation' in line], ['assigned', 0, false]);
    }
    const history = await get(`/monitores/${orphan.machineId}/historial`);
    const cancelled = (history.items as Json[]).find((e) => e.type === 'MachineUseCancelled');
    assert.deepEqual([cancelled?.reason, (cancelled?.data as Json).sessionId], ['orphaned-claim', orphanSession]);

    // The started session still holds everything it claimed.
    assert.equal((await get(`/monitores/${started.machineId}`)).status, 'in-use');
    assert.equal((await get(`/filtros-dialisis/${started.dialyzerId}`)).status, 'in-use');
    assert.equal((await get(`/lineas-venosas/${started.venousId}`)).status, 'in-use');
    // A second run finds nothing more to release.
    assert.equal((await releaseOrphanedSessionClaims(reconciliationDeps(services()), tenantA())).released.length, 0);
  });
});
