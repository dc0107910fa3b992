// The change feed as JSON pages and long-polls over real HTTP (issue 24 item 1): a company's events in log order after
// a position, filtered, only what the caller may see (a billing program sees no clinical notes), never another company's.
import assert from 'node:assert/strict';
import { expectStatus, startClientesWorld, type ClientesWorld, type Json } from './clientesWorld.js';
import { registration } from './pacientesWorld.js';
import { clientToken } from './adminWorld.js';

describe('Change feed over HTTP: GET /sistema/eventos (JSON and long-poll)', () => {
  let w: ClientesWorld;
  let start: string;
  let patientId: string;
  let otherPatientId: string;
  let noteId: string;
  let clientId: string;
  let bPatientId: string;

  const feed = (token: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    w.call(token, 'GET', `/sistema/eventos?${new URLSearchParams(query).toString()}`, { headers });
  /** Every page from `from` on, following nextFrom until a page comes back empty. */
  async function all(token: string, query: Record<string, string>): Promise<Json[]> {
    const items: Json[] = [];
    let from = query.from ?? '0';
    for (let pages = 0; pages < 100; pages++) {
      const page = expectStatus(await feed(token, { ...query, from }), 200).body;
      if (page.items.length === 0) return items;
      items.push(...page.items);
      from = page.nextFrom;
    }
    throw new Error('the feed never ended');
  }

  before(async () => {
    w = await startClientesWorld();
    start = expectStatus(await feed(w.a, { from: '0', limit: '1' }), 200).body.head as string;
    patientId = expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    otherPatientId = expectStatus(await w.call(w.a, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    const note = await w.call(w.a, 'POST', `/pacientes/${patientId}/notas`, { json: { noteType: 'general', text: 'stable' } });
    noteId = expectStatus(note, 201).body.id as string;
    clientId = (await w.client(w.a)).body.id as string;
    bPatientId = expectStatus(await w.call(w.b, 'POST', '/pacientes', { json: registration() }), 201).body.id as string;
    expectStatus(await w.call(w.a, 'GET', `/pacientes/${patientId}`), 200); // a read: audited, never in the feed
    await w.server.flushAccessAudit();
  });
  after(async () => w?.close());

  it('pages the company events in log order after a position, with nextFrom and head, never another company', async () => {
    const first = expectStatus(await feed(w.a, { from: start, limit: '2' }), 200).body;
    assert.equal(first.items.length, 2);
    assert.equal(first.nextFrom, first.items[1].position);
    assert.ok(BigInt(first.head) >= BigInt(first.nextFrom));
    const items = await all(w.a, { from: start, limit: '2' });
    const positions = items.map((e) => BigInt(e.position));
    assert.deepEqual(
      positions,
      [...positions].sort((a, b) => (a < b ? -1 : 1)),
    );
    assert.equal(new Set(items.map((e) => e.id)).size, items.length, 'no event twice');
    assert.ok(positions.every((p) => p > BigInt(start)));
    const kinds = items.map((e) => `${e.recordType}:${e.type}`);
    assert.ok(kinds.includes('patient:PatientRegistered'));
    assert.ok(kinds.includes('nursingNote:NursingNoteRecorded'));
    assert.ok(kinds.includes('client:ClientRegistered'));
    assert.ok(!items.some((e) => e.recordType === 'accessLog' || e.recordType === 'idempotency'), 'no bookkeeping');
    assert.ok(!JSON.stringify(items).includes(bPatientId), "never another company's events");
    const note = items.find((e) => e.type === 'NursingNoteRecorded')!;
    assert.equal(note.recordId, noteId);
    assert.equal(note.patientId, patientId, 'attributed to its patient');
    assert.deepEqual(Object.keys(note).sort(), [
      'actor',
      'correlationId',
      'data',
      'id',
      'occurredAt',
      'patientId',
      'position',
      'reason',
      'recordId',
      'recordType',
      'type',
    ]);
  });

  it('takes desde as the issue writes it, and filters by record type, event type and patient', async () => {
    const viaDesde = expectStatus(await feed(w.a, { desde: start, limit: '50' }), 200).body;
    const viaFrom = expectStatus(await feed(w.a, { from: start, limit: '50' }), 200).body;
    assert.deepEqual(
      viaDesde.items.map((e: Json) => e.id),
      viaFrom.items.map((e: Json) => e.id),
    );
    const notes = await all(w.a, { from: start, recordType: 'nursingNote' });
    assert.deepEqual([...new Set(notes.map((e) => e.recordType))], ['nursingNote']);
    const registered = await all(w.a, { from: start, type: 'PatientRegistered,ClientRegistered' });
    assert.deepEqual(registered.map((e) => e.type).sort(), ['ClientRegistered', 'PatientRegistered', 'PatientRegistered']);
    const mine = await all(w.a, { from: start, patientId });
    assert.ok(mine.length >= 2);
    assert.ok(mine.every((e) => e.patientId === patientId));
    assert.ok(mine.some((e) => e.recordType === 'nursingNote'));
    assert.ok(!mine.some((e) => e.recordId === otherPatientId || e.recordId === clientId));
  });

  it('answers a long-poll as soon as a matching event is written during the wait, else an empty page after it', async () => {
    const head = expectStatus(await feed(w.a, { from: start, limit: '1' }), 200).body.head as string;
    const began = Date.now();
    const polled = feed(w.a, { from: head, wait: '20', recordType: 'client' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = (await w.client(w.a)).body.id as string;
    const answer = expectStatus(await polled, 200).body;
    assert.ok(Date.now() - began < 10_000, 'answered before the wait ran out');
    assert.deepEqual(
      answer.items.map((e: Json) => [e.type, e.recordId]),
      [['ClientRegistered', written]],
    );
    const quiet = Date.now();
    const empty = expectStatus(await feed(w.a, { from: answer.nextFrom, wait: '1', recordType: 'client' }), 200).body;
    assert.deepEqual(empty.items, []);
    assert.ok(Date.now() - quiet >= 900, 'waited');
    assert.ok(BigInt(empty.nextFrom) >= BigInt(answer.nextFrom));
  });

  it('shows a billing program client and authorization events but no clinical notes or patients', async () => {
    expectStatus(
      await w.call(w.a, 'POST', '/roles', {
        json: { code: 'cobranza', name: 'Cobranza', permissions: ['clientes:read', 'clientes:write', 'productos:read'] },
      }),
      201,
    );
    const created = expectStatus(await w.call(w.a, 'POST', '/integraciones', { json: { name: 'Billing', roles: ['cobranza'] } }), 201);
    const issued = await clientToken(w.server, created.body.client.id as string, created.body.clientSecret as string);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const token = issued.body.access_token as string;
    const seen = await all(token, { from: start });
    assert.ok(seen.some((e) => e.type === 'ClientRegistered' && e.recordId === clientId));
    assert.deepEqual([...new Set(seen.map((e) => e.recordType))], ['client']);
    const asked = await all(token, { from: start, recordType: 'nursingNote' });
    assert.deepEqual(asked, [], 'asking for notes shows none');
    const byPatient = await all(token, { from: start, patientId });
    assert.deepEqual(byPatient, []);
  });

  it("gives the built-in billing role patients and payers but no nursing notes, in the feed as over the notes' routes", async () => {
    const created = expectStatus(await w.call(w.a, 'POST', '/integraciones', { json: { name: 'Facturas', roles: ['billing'] } }), 201);
    const issued = await clientToken(w.server, created.body.client.id as string, created.body.clientSecret as string);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const token = issued.body.access_token as string;
    const seen = await all(token, { from: start });
    assert.ok(seen.some((e) => e.recordType === 'client') && seen.some((e) => e.recordType === 'patient'));
    assert.ok(!seen.some((e) => e.recordType === 'nursingNote'), 'no nursing note in the feed');
    expectStatus(await w.call(token, 'GET', `/pacientes/${patientId}/notas`), 403);
    expectStatus(await w.call(token, 'GET', `/pacientes/${patientId}/notas/${noteId}`), 403);
    expectStatus(await w.call(w.a, 'GET', `/pacientes/${patientId}/notas/${noteId}`), 200);
  });

  it('refuses a bad position naming the field (query and Last-Event-ID)', async () => {
    for (const from of ['abc', '-1', '1.5', '99999999999999999999999']) {
      const answer = await feed(w.a, { from });
      assert.ok([400, 422].includes(answer.status), `${from}: ${answer.status}`);
      assert.ok(
        (answer.body.errors as Json[]).some((e) => e.pointer === '/query/from'),
        JSON.stringify(answer.body),
      );
    }
    const header = await feed(w.a, {}, { 'last-event-id': 'nope' });
    assert.ok([400, 422].includes(header.status));
    assert.ok(
      (header.body.errors as Json[]).some((e) => e.pointer === '/headers/last-event-id'),
      JSON.stringify(header.body),
    );
    // A position this log has not reached (another instance's, or made up) would silently skip events: refused.
    const beyond = String((await w.server.services.events.headPosition()) + 1000n);
    const ahead = await feed(w.a, { from: beyond });
    assert.equal(ahead.status, 422, JSON.stringify(ahead.body));
    assert.ok((ahead.body.errors as Json[]).some((e) => e.pointer === '/query/from'));
    const aheadHeader = await feed(w.a, {}, { 'last-event-id': beyond });
    assert.equal(aheadHeader.status, 422);
    assert.ok((aheadHeader.body.errors as Json[]).some((e) => e.pointer === '/headers/last-event-id'));
    const tooLong = await feed(w.a, { wait: '31' });
    assert.ok((tooLong.body.errors as Json[]).some((e) => e.pointer === '/query/wait'));
  });

  it('is audited once per page read, not per event', async () => {
    await w.server.flushAccessAudit();
    const before = await w.server.services.events.headPosition(w.server.admin.companyId);
    expectStatus(await feed(w.a, { from: start, limit: '50' }), 200);
    await w.server.flushAccessAudit();
    const logged = (await w.server.services.events.readAll({ tenant: w.server.admin.companyId, after: before })).filter(
      (e) => e.type === 'RecordAccessed' && e.data.route === '/sistema/eventos',
    );
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.data.recordType, 'changeFeed');
  });
});
