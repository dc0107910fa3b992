// The audit trail over real HTTP and stores (issue 23 item 1): an auditor lists who read and who changed a patient
// between two instants, refused attempts included; pages, CSV and NDJSON; company and platform scopes kept apart.
import assert from 'node:assert/strict';
import { expectStatus, startStaffWorld, type Json, type StaffWorld } from './staffWorld.js';
import { registration } from './pacientesWorld.js';

describe('Audit trail over HTTP: GET /sistema/auditoria', () => {
  let w: StaffWorld;
  let auditor: { userId: string; token: string };
  let nosy: { userId: string; token: string };
  let patientId: string;
  let noteId: string;
  let t1: string;
  let t2: string;

  /** Waits until every access entry is written and projected. */
  async function settled(): Promise<void> {
    await w.server.flushAccessAudit();
    const { events, projections } = w.server.services;
    assert.ok(await projections.waitFor(await events.headPosition(), { timeoutMs: 10_000 }));
  }
  const tick = () => w.server.clock.advance(60_000);
  const now = () => w.server.services.now().toISOString();
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const who = (e: Json) => [e.actor, e.action, e.outcome, e.recordType, e.method ?? null, e.status ?? null];

  before(async () => {
    w = await startStaffWorld();
    auditor = await w.memberWith(['sistema:audit']);
    nosy = await w.memberWith(['colaboradores:read']);
    patientId = expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    tick();
    t1 = now();
    tick();
    expectStatus(await w.call(w.a, 'GET', `/pacientes/${patientId}`, { headers: { 'user-agent': 'ward-pc/1.0' } }), 200);
    tick();
    const note = await w.call(w.a, 'POST', `/pacientes/${patientId}/notas`, { json: { noteType: 'general', text: 'stable' } });
    noteId = expectStatus(note, 201).body.id as string;
    tick();
    expectStatus(await w.call(nosy.token, 'GET', `/pacientes/${patientId}`, { headers: { 'user-agent': '=HYPERLINK("x")' } }), 403);
    expectStatus(await w.call(nosy.token, 'POST', `/pacientes/${patientId}/notas`, { json: { noteType: 'general', text: 'x' } }), 403);
    tick();
    t2 = now();
    tick();
    expectStatus(await w.call(w.a, 'GET', `/pacientes/${patientId}`), 200); // after T2: not listed
    await settled();
  });
  after(async () => w?.close());

  it('lists who read and who changed the patient between T1 and T2, newest first, the refused attempts included', async () => {
    const answer = expectStatus(await w.call(auditor.token, 'GET', `/sistema/auditoria?${query({ patientId, from: t1, to: t2 })}`), 200);
    const admin = w.server.admin.userId;
    assert.deepEqual((answer.body.items as Json[]).map(who), [
      [nosy.userId, 'write', 'denied', 'pacientes', 'POST', 403],
      [nosy.userId, 'read', 'denied', 'patient', 'GET', 403],
      [admin, 'NursingNoteRecorded', 'succeeded', 'nursingNote', null, null],
      [admin, 'read', 'allowed', 'patient', 'GET', 200],
    ]);
    const [, , note, read] = answer.body.items as [Json, Json, Json, Json];
    assert.equal(note.recordId, noteId);
    assert.deepEqual(note.patientIds, [patientId]);
    assert.equal(read.userAgent, 'ward-pc/1.0');
    assert.equal(read.route, '/pacientes/{id}');
    assert.ok(typeof read.correlationId === 'string' && read.ip !== undefined);
  });

  it('filters by actor, outcome, action, record and route, and pages with a sealed cursor', async () => {
    const list = async (params: Record<string, string>) =>
      expectStatus(await w.call(auditor.token, 'GET', `/sistema/auditoria?${query({ from: t1, to: t2, ...params })}`), 200).body;
    assert.deepEqual(
      ((await list({ actor: nosy.userId })).items as Json[]).map((e) => e.outcome),
      ['denied', 'denied'],
    );
    assert.equal(((await list({ outcome: 'denied' })).items as Json[]).length, 2);
    assert.deepEqual(
      ((await list({ action: 'NursingNoteRecorded' })).items as Json[]).map((e) => e.recordId),
      [noteId],
    );
    assert.deepEqual(((await list({ recordType: 'nursingNote', recordId: noteId })).items as Json[]).length, 1);
    assert.equal(((await list({ route: '/pacientes/{id}' })).items as Json[]).length, 2);
    const window = ((await list({})).items as Json[]).map((e) => e.action);
    assert.deepEqual(window, ['write', 'read', 'NursingNoteRecorded', 'read'], 'the time range alone: everything of the company in it');

    // A patient's filter with the others: the patient's rows compare them, the entries answer whole.
    const refused = (await list({ patientId, outcome: 'denied' })).items as Json[];
    assert.deepEqual(refused.map(who), [
      [nosy.userId, 'write', 'denied', 'pacientes', 'POST', 403],
      [nosy.userId, 'read', 'denied', 'patient', 'GET', 403],
    ]);
    assert.deepEqual(
      refused.map((e) => [e.userAgent, e.patientIds, e.count, e.lastAt === e.at]),
      [
        ['node', [patientId], 1, true],
        ['=HYPERLINK("x")', [patientId], 1, true],
      ],
    );
    assert.equal(((await list({ patientId, actor: nosy.userId, route: '/pacientes/{id}' })).items as Json[]).length, 1);
    assert.deepEqual(
      ((await list({ patientId, action: 'NursingNoteRecorded', updatedSince: t1 })).items as Json[]).map((e) => e.recordId),
      [noteId],
    );
    assert.equal(((await list({ patientId, updatedSince: t2 })).items as Json[]).length, 0);

    const first = await list({ patientId, limit: '3' });
    assert.equal((first.items as Json[]).length, 3);
    const second = await list({ patientId, limit: '3', cursor: first.nextCursor as string });
    assert.deepEqual((second.items as Json[]).map(who), [[w.server.admin.userId, 'read', 'allowed', 'patient', 'GET', 200]]);
    assert.equal(second.nextCursor, null);
    const forged = await w.call(
      auditor.token,
      'GET',
      `/sistema/auditoria?${query({ from: t1, to: t2, patientId, action: 'read', cursor: first.nextCursor as string })}`,
    );
    expectStatus(forged, 400);
  });

  it('answers CSV (formulas defused) and NDJSON, streamed, with the same entries', async () => {
    const csv = await w.server.request('GET', `/sistema/auditoria?${query({ patientId, from: t1, to: t2, format: 'csv' })}`, {
      token: auditor.token,
    });
    assert.equal(csv.status, 200);
    assert.match(csv.headers['content-type']!, /^text\/csv/);
    const lines = (csv.body as string).trimEnd().split('\r\n');
    assert.equal(lines.length, 5);
    assert.match(lines[0]!, /^at,actor,action,outcome,/);
    assert.ok(lines[3]!.includes('NursingNoteRecorded'));
    assert.ok(lines[2]!.includes(`"'=HYPERLINK(""x"")"`), lines[2]);

    const nd = await fetch(`${w.server.url}/sistema/auditoria?${query({ patientId, from: t1, to: t2, format: 'ndjson' })}`, {
      headers: { authorization: `Bearer ${auditor.token}` },
    });
    assert.equal(nd.status, 200);
    assert.match(nd.headers.get('content-type')!, /^application\/x-ndjson/);
    const entries = (await nd.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['write', 'read', 'NursingNoteRecorded', 'read'],
    );
  });

  it("company roles without sistema:audit are refused; another company's auditor sees none of it; the platform sees sign-ins", async () => {
    expectStatus(await w.call(nosy.token, 'GET', '/sistema/auditoria'), 403);
    const admin = expectStatus(await w.call(w.a, 'GET', `/sistema/auditoria?${query({ patientId, from: t1, to: t2 })}`), 200);
    assert.equal((admin.body.items as Json[]).length, 4, 'a company administrator sees the trail of the company');
    const other = expectStatus(await w.call(w.b, 'GET', `/sistema/auditoria?${query({ patientId })}`), 200);
    assert.deepEqual(other.body.items, []);
    const otherAll = expectStatus(await w.call(w.b, 'GET', `/sistema/auditoria?${query({ actor: nosy.userId })}`), 200);
    assert.deepEqual(otherAll.body.items, []);

    expectStatus(await w.call(auditor.token, 'GET', '/sistema/auditoria/plataforma'), 403);
    const platform = expectStatus(await w.call(w.a, 'GET', `/sistema/auditoria/plataforma?${query({ recordId: nosy.userId })}`), 200);
    const actions = (platform.body.items as Json[]).map((e) => e.action);
    assert.ok(actions.includes('LoginSucceeded') && actions.includes('TotpCodeAccepted'), actions.join());
    const mine = expectStatus(await w.call(auditor.token, 'GET', `/sistema/auditoria?${query({ action: 'MembershipGranted' })}`), 200);
    assert.ok(
      (mine.body.items as Json[]).some((e) => e.recordType === 'company'),
      "the company's membership changes are in its trail",
    );
  });
  it('answers a page the same until entries are written, then the next read shows them; filters and companies never share a page', async () => {
    const page = async (token: string, params: Record<string, string>) =>
      expectStatus(await w.call(token, 'GET', `/sistema/auditoria?${query(params)}`), 200).body;
    const reads = { recordType: 'patient', recordId: patientId, limit: '5' };
    const first = await page(auditor.token, reads);
    assert.deepEqual(await page(auditor.token, reads), first);
    // Company B's auditor-administrator asks the very same: nothing of A's.
    assert.deepEqual((await page(w.b, reads)).items, []);
    // Another filter on the same trail is its own page.
    const notes = await page(auditor.token, { recordType: 'nursingNote', recordId: noteId });
    assert.deepEqual(
      (notes.items as Json[]).map((e) => [e.recordType, e.recordId]),
      [['nursingNote', noteId]],
    );

    // A new read of the patient, written and projected: the next page starts with it.
    tick();
    expectStatus(await w.call(w.a, 'GET', `/pacientes/${patientId}`, { headers: { 'user-agent': 'later-pc/2.0' } }), 200);
    await settled();
    const after = await page(auditor.token, reads);
    assert.equal((after.items as Json[])[0]!.userAgent, 'later-pc/2.0');
    assert.deepEqual((after.items as Json[]).slice(1), (first.items as Json[]).slice(0, 4));
  });
});
