// Pacientes over real HTTP: nursing notes and their amendments, the record's history, company isolation
// (404 for every route of another company's patient) and the OpenAPI entries.
import assert from 'node:assert/strict';
import { pacientesGroup } from '../../src/http/routes/pacientes/index.js';
import { assertOpenApiShape, deref } from './openApiShape.js';
import { expectStatus, startPacientesWorld, type Answer, type Json, type PacientesWorld } from './pacientesWorld.js';

describe('Pacientes over HTTP: notes, history, isolation between companies', () => {
  let world: PacientesWorld;
  let a: string;
  let b: string;
  let actorA: string;
  const call = (...args: Parameters<PacientesWorld['call']>): Promise<Answer> => world.call(...args);
  const register = (...args: Parameters<PacientesWorld['register']>): Promise<Answer> => world.register(...args);

  before(async () => {
    world = await startPacientesWorld();
    ({ a, b, actorA } = world);
  });
  after(async () => world?.close());

  it('records, lists and amends nursing notes without overwriting them', async () => {
    const p = await register(a);
    const base = `/pacientes/${p.body.id}/notas`;
    const recorded = expectStatus(
      await call(a, 'POST', base, { json: { noteType: 'pre', text: 'Thrill present, no edema', authorLicence: 'CEP 12345' } }),
      201,
    );
    const noteId = recorded.body.id as string;
    assert.equal(recorded.headers.get('location'), `${base}/${noteId}`);
    assert.equal(recorded.body.authorId, actorA);
    expectStatus(await call(a, 'POST', base, { json: { noteType: 'post', soapie: { subjective: 'tired', plan: 'reassess' } } }), 201);
    expectStatus(await call(a, 'POST', base, { json: { noteType: 'general' } }), 422);

    expectStatus(await call(a, 'POST', `${base}/${noteId}/enmiendas`, { json: { text: 'Thrill present, mild edema' } }), 422);
    const amended = expectStatus(
      await call(a, 'POST', `${base}/${noteId}/enmiendas`, {
        json: { text: 'Thrill present, mild edema', reason: 'edema missed' },
        headers: { 'if-match': 'W/"0"' },
      }),
      201,
    );
    assert.equal(amended.body.version, 2);
    assert.equal(amended.body.text, 'Thrill present, mild edema');
    assert.deepEqual(
      amended.body.versions.map((v: Json) => [v.version, v.text, v.reason]),
      [
        [1, 'Thrill present, no edema', undefined],
        [2, 'Thrill present, mild edema', 'edema missed'],
      ],
    );
    expectStatus(
      await call(a, 'POST', `${base}/${noteId}/enmiendas`, { json: { text: 'x', reason: 'y' }, headers: { 'if-match': 'W/"0"' } }),
      412,
    );

    const list = expectStatus(await call(a, 'GET', `${base}?limit=1`), 200);
    assert.equal(list.body.items.length, 1);
    assert.ok(list.body.nextCursor);
    const rest = expectStatus(await call(a, 'GET', `${base}?limit=1&cursor=${encodeURIComponent(list.body.nextCursor)}`), 200);
    assert.equal(rest.body.nextCursor, null);
    const read = expectStatus(await call(a, 'GET', `${base}/${noteId}`), 200);
    assert.equal(read.body.versions[0].text, 'Thrill present, no edema');
  });

  it("shows the record's history with who, when and why, in order", async () => {
    const p = await register(a);
    const id = p.body.id as string;
    await call(a, 'PATCH', `/pacientes/${id}`, {
      json: { etiology: 'hypertension', reason: 'referral letter' },
      headers: { 'if-match': 'W/"0"' },
    });
    const note = expectStatus(await call(a, 'POST', `/pacientes/${id}/notas`, { json: { noteType: 'general', text: 'First visit' } }), 201);
    await call(a, 'POST', `/pacientes/${id}/notas/${note.body.id}/enmiendas`, { json: { text: 'First visit, calm', reason: 'completed' } });
    const last = expectStatus(await call(a, 'POST', `/pacientes/${id}/estado`, { json: { status: 'hospitalized', reason: 'fever' } }), 200);

    const history = expectStatus(
      await call(a, 'GET', `/pacientes/${id}/historial?minPosition=${last.headers.get('x-event-position')}`),
      200,
    );
    const items = history.body.items as Json[];
    assert.deepEqual(
      items.map((e) => e.type),
      ['PatientRegistered', 'PatientDataCorrected', 'NursingNoteRecorded', 'NursingNoteAmended', 'PatientStatusChanged'],
    );
    assert.deepEqual(
      items.map((e) => e.reason),
      [null, 'referral letter', null, 'completed', 'fever'],
    );
    assert.ok(items.every((e) => e.actor === actorA && typeof e.occurredAt === 'string'));
    // Positions and cursors are opaque: they never show the platform-wide write counter; a position reads your write.
    for (const e of items) assert.match(e.position, /^c1\.[A-Za-z0-9_-]+$/);
    expectStatus(await call(a, 'GET', `/pacientes/${id}/historial?minPosition=${items.at(-1)!.position}`), 200);
    const paged = expectStatus(await call(a, 'GET', `/pacientes/${id}/historial?limit=2`), 200);
    assert.match(paged.body.nextCursor, /^p1\.[A-Za-z0-9_-]+$/); // sealed like every list cursor (pageCursor.ts)
    const next = expectStatus(await call(a, 'GET', `/pacientes/${id}/historial?limit=10&cursor=${paged.body.nextCursor}`), 200);
    const entry = (e: Json) => `${e.recordType}:${e.recordId}:${e.revision}`;
    assert.deepEqual([...paged.body.items, ...next.body.items].map(entry), items.map(entry));
    expectStatus(await call(a, 'GET', `/pacientes/${id}/historial?cursor=${Buffer.from('{"after":"1"}').toString('base64url')}`), 400);
  });

  it('answers 404 to another company for every route of a patient', async () => {
    const p = await register(a);
    const id = p.body.id as string;
    const access = expectStatus(
      await call(a, 'POST', `/pacientes/${id}/accesos-vasculares`, {
        json: { type: 'AVF', side: 'left', site: 'radiocephalic', creationDate: '2024-12-01' },
      }),
      201,
    );
    const accessId = access.body.vascularAccesses[0].accessId;
    const covered = expectStatus(
      await call(a, 'POST', `/pacientes/${id}/coberturas`, { json: { payerName: 'SIS', memberNumber: '9', validFrom: '2025-01-01' } }),
      201,
    );
    const coverageId = covered.body.coverages[0].coverageId;
    const note = expectStatus(await call(a, 'POST', `/pacientes/${id}/notas`, { json: { noteType: 'general', text: 'x' } }), 201);
    const noteId = note.body.id;
    // A valid request for every route of a patient: validation passes, so only the company decides the answer.
    const requests: Record<string, { json?: unknown; headers?: Record<string, string> }> = {
      'get /pacientes/{id}': {},
      'patch /pacientes/{id}': { json: { givenNames: 'Intruso' }, headers: { 'if-match': 'W/"3"' } },
      'get /pacientes/{id}/historial': {},
      'post /pacientes/{id}/estado': { json: { status: 'hospitalized', reason: 'x' } },
      'post /pacientes/{id}/peso-seco': { json: { dryWeightKg: 60 } },
      'post /pacientes/{id}/serologias': { json: { test: 'HIV', result: 'negative', sampleDate: '2025-01-01' } },
      'post /pacientes/{id}/alergias': { json: { substance: 'latex' } },
      'post /pacientes/{id}/coberturas': { json: { payerName: 'X', memberNumber: '1', validFrom: '2025-01-01' } },
      'post /pacientes/{id}/coberturas/{coverageId}/fin': { json: { endDate: '2025-02-01', reason: 'x' } },
      'post /pacientes/{id}/accesos-vasculares': { json: { type: 'AVG', side: 'left', site: 'forearm loop', creationDate: '2025-01-01' } },
      'post /pacientes/{id}/accesos-vasculares/{accessId}/estado': { json: { status: 'active', date: '2025-02-01' } },
      'post /pacientes/{id}/accesos-vasculares/{accessId}/principal': { json: {} },
      'get /pacientes/{id}/peso-seco': {},
      'get /pacientes/{id}/retencion-legal': {},
      'post /pacientes/{id}/retencion-legal': { json: { held: true, reason: 'x' } },
      'get /pacientes/{id}/serologias': {},
      'get /pacientes/{id}/alergias': {},
      'get /pacientes/{id}/coberturas': {},
      'get /pacientes/{id}/accesos-vasculares': {},
      'post /pacientes/{id}/notas': { json: { noteType: 'general', text: 'x' } },
      'get /pacientes/{id}/notas': {},
      'get /pacientes/{id}/notas/{noteId}': {},
      'get /pacientes/{id}/notas/{noteId}/versiones': {},
      'post /pacientes/{id}/notas/{noteId}/enmiendas': { json: { text: 'y', reason: 'z' } },
    };
    const patientRoutes = pacientesGroup.routes.filter((r) => r.path.includes('{id}'));
    assert.deepEqual(
      patientRoutes.map((r) => `${r.method} ${r.path}`).sort(),
      Object.keys(requests).sort(),
      'every patient route is tried',
    );
    const ids: Record<string, string> = { id, accessId, coverageId, noteId };
    const absent: Record<string, string> = { id: '00000000-0000-4000-8000-000000000000', accessId, coverageId, noteId };
    for (const route of patientRoutes) {
      const request = requests[`${route.method} ${route.path}`]!;
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]!);
      expectStatus(await call(b, route.method.toUpperCase(), path, request), 404, 'not-found');
      if (route.method === 'get') continue;
      // Existence comes before the precondition: an If-Match never turns an absent record into a 412.
      const conditional = { ...request, headers: { ...request.headers, 'if-match': 'W/"0"' } };
      expectStatus(await call(b, route.method.toUpperCase(), path, conditional), 404, 'not-found');
      const absentPath = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => absent[name]!);
      expectStatus(await call(a, route.method.toUpperCase(), absentPath, conditional), 404, 'not-found');
    }
    // Nothing changed for company A.
    const after = expectStatus(await call(a, 'GET', `/pacientes/${id}`), 200);
    assert.equal(after.headers.get('etag'), 'W/"2"');
    const own = expectStatus(await call(b, 'GET', `/pacientes?q=${p.body.documentNumber}`), 200);
    assert.deepEqual(own.body.items, []);
  });

  it('documents every Pacientes route in the OpenAPI document with its full status table', async () => {
    const doc = (await world.server.request('GET', '/openapi.json')).body as Json;
    assertOpenApiShape(doc);
    assert.ok(doc.tags.some((t: Json) => t.name === 'Pacientes'));
    for (const route of pacientesGroup.routes) {
      const op = doc.paths[route.path]?.[route.method];
      assert.ok(op, `${route.method} ${route.path} is documented`);
      assert.deepEqual(op.tags, ['Pacientes']);
      for (const status of Object.keys(route.responses))
        assert.ok(op.responses[status], `${route.method} ${route.path} documents ${status}`);
      for (const status of ['401', '403']) assert.ok(op.responses[status], `${route.method} ${route.path} documents ${status}`);
    }
    const patch = doc.paths['/pacientes/{id}'].patch;
    assert.ok(patch.parameters.some((p: Json) => deref(p, doc).in === 'header' && deref(p, doc).name === 'If-Match'));
    assert.ok(patch.responses['428'] && patch.responses['412']);
  });
});
