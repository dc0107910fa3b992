// Pacientes end to end over real HTTP (command -> event -> projection -> query): registration, search,
// uniqueness, concurrency with ETags, status, clinical facts, vascular accesses, idempotent creation.
import assert from 'node:assert/strict';
import {
  expectStatus,
  nextDocument,
  pointers,
  registration,
  startPacientesWorld,
  type Answer,
  type Json,
  type PacientesWorld,
} from './pacientesWorld.js';

describe('Pacientes over HTTP: patients', () => {
  let world: PacientesWorld;
  let a: string;
  let b: string;
  const call = (...args: Parameters<PacientesWorld['call']>): Promise<Answer> => world.call(...args);
  const register = (...args: Parameters<PacientesWorld['register']>): Promise<Answer> => world.register(...args);

  before(async () => {
    world = await startPacientesWorld();
    ({ a, b } = world);
  });
  after(async () => world?.close());

  it('registers a patient and reads it back, with ETag, Location and a position to read your write', async () => {
    const created = await register(a, { serology: [{ test: 'HBsAg', result: 'positive', sampleDate: '2025-01-15' }] });
    const id = created.body.id as string;
    assert.equal(created.headers.get('location'), `/pacientes/${id}`);
    assert.equal(created.headers.get('etag'), 'W/"0"');
    assert.match(created.headers.get('x-event-position') ?? '', /^c1\.[A-Za-z0-9_-]+$/);
    assert.equal(created.body.status, 'active');
    assert.deepEqual(created.body.isolation, ['HBV']);
    assert.equal(created.body.searchText, undefined);

    const read = expectStatus(await call(a, 'GET', `/pacientes/${id}`), 200);
    assert.equal(read.headers.get('etag'), 'W/"0"');
    assert.equal(read.body.givenNames, 'María José');

    // Read-your-writes: a list right after the write already has it.
    const another = await register(a, { givenNames: 'Teodoro', familyNames: 'Zúñiga Paredes' });
    const position = another.headers.get('x-event-position')!;
    const list = expectStatus(await call(a, 'GET', `/pacientes?q=zuniga&minPosition=${position}`), 200);
    assert.deepEqual(
      list.body.items.map((p: Json) => p.id),
      [another.body.id],
    );
    // The write answered only once its read model had it: even without minPosition the list is current.
    const third = await register(a, { givenNames: 'Ruperta', familyNames: 'Inmediata' });
    const now = expectStatus(await call(a, 'GET', '/pacientes?q=inmediata'), 200);
    assert.deepEqual(
      now.body.items.map((p: Json) => p.id),
      [third.body.id],
    );
  });

  it('refuses invalid data with 422 naming each field', async () => {
    const tooHeavy = expectStatus(
      await call(a, 'POST', '/pacientes', { json: registration({ dryWeightKg: 400, sex: 'x' }) }),
      422,
      'validation-failed',
    );
    assert.deepEqual(pointers(tooHeavy), ['/body/dryWeightKg', '/body/sex']);
    const rules = expectStatus(
      await call(a, 'POST', '/pacientes', { json: registration({ dryWeightKg: 70.25, birthDate: '2999-01-01' }) }),
      422,
      'validation-failed',
    );
    assert.deepEqual(pointers(rules), ['/body/admissionDate', '/body/birthDate', '/body/dryWeightKg']);
    const missing = expectStatus(await call(a, 'POST', '/pacientes', { json: { documentType: 'DNI' } }), 422);
    assert.ok(pointers(missing).includes('/body/documentNumber'));
  });

  it('keeps identity documents unique within a company, also under concurrent registrations', async () => {
    const documentNumber = nextDocument();
    await register(a, { documentNumber });
    const again = await call(a, 'POST', '/pacientes', {
      json: registration({ documentNumber: `${documentNumber.slice(0, 2)}.${documentNumber.slice(2, 5)}-${documentNumber.slice(5)}` }),
    });
    expectStatus(again, 409, 'duplicate-document');
    // Another company may have a patient with the same document.
    await register(b, { documentNumber });

    const contested = nextDocument();
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(a, 'POST', '/pacientes', { json: registration({ documentNumber: contested }) })),
    );
    assert.deepEqual(answers.map((x) => x.status).sort(), [201, 409, 409]);
    const found = expectStatus(await call(a, 'GET', `/pacientes?q=${contested}`), 200);
    assert.equal(found.body.items.length, 1);
  });

  it('searches by name or document ignoring case and accents, and filters by status', async () => {
    const doc = nextDocument();
    const p = await register(a, { givenNames: 'Íñigo', familyNames: 'Ñahui Ccori', documentNumber: doc });
    for (const q of ['inigo', 'ÑAHUI', 'nahui inigo', doc.slice(0, 5)]) {
      const found = expectStatus(await call(a, 'GET', `/pacientes?q=${encodeURIComponent(q)}`), 200);
      assert.ok(
        found.body.items.some((x: Json) => x.id === p.body.id),
        `search '${q}' finds the patient`,
      );
    }
    const none = expectStatus(await call(a, 'GET', '/pacientes?q=inigo&status=deceased'), 200);
    assert.deepEqual(none.body.items, []);
  });

  it('walks every patient exactly once with the cursor, in every sort order', async () => {
    for (let i = 0; i < 7; i++)
      await register(a, { familyNames: `Paginado ${String.fromCharCode(72 - i)}`, admissionDate: `2024-0${1 + (i % 3)}-10` });
    const all = expectStatus(await call(a, 'GET', '/pacientes?limit=200'), 200).body.items as Json[];
    for (const sort of ['name', 'admissionDate', 'createdAt']) {
      for (const order of ['asc', 'desc']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const query: string = `/pacientes?limit=3&sort=${sort}&order=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const page = expectStatus(await call(a, 'GET', query), 200);
          seen.push(...page.body.items.map((x: Json) => x.id));
          cursor = page.body.nextCursor;
        } while (cursor);
        assert.equal(seen.length, all.length, `${sort} ${order}`);
        assert.equal(new Set(seen).size, all.length, `${sort} ${order} repeats nothing`);
      }
    }
    const names = expectStatus(await call(a, 'GET', '/pacientes?q=paginado&sort=name&order=desc'), 200).body.items.map(
      (x: Json) => x.familyNames,
    );
    assert.deepEqual(names, [...names].sort().reverse());
    expectStatus(await call(a, 'GET', '/pacientes?limit=201'), 422);
    expectStatus(await call(a, 'GET', '/pacientes?cursor=bm9wZQ'), 400, 'invalid-cursor');
  });

  it('updates with If-Match: 428 without it, one 200 and one 412 for the same ETag', async () => {
    const p = await register(a);
    const url = `/pacientes/${p.body.id}`;
    expectStatus(await call(a, 'PATCH', url, { json: { etiology: 'hypertension' } }), 428, 'precondition-required');
    const etag = p.headers.get('etag')!;
    const [first, second] = await Promise.all([
      call(a, 'PATCH', url, { json: { etiology: 'hypertension', reason: 'referral letter' }, headers: { 'if-match': etag } }),
      call(a, 'PATCH', url, { json: { contact: { phone: '+51 999 888 777' } }, headers: { 'if-match': etag } }),
    ]);
    assert.deepEqual([first.status, second.status].sort(), [200, 412]);
    const winner = first.status === 200 ? first : second;
    assert.equal(winner.headers.get('etag'), 'W/"1"');
    const read = expectStatus(await call(a, 'GET', url), 200);
    assert.equal(read.headers.get('etag'), 'W/"1"');
    expectStatus(
      await call(a, 'PATCH', url, { json: { givenNames: 'Ana' }, headers: { 'if-match': 'W/"0"' } }),
      412,
      'precondition-failed',
    );
    const cleared = expectStatus(
      await call(a, 'PATCH', url, { json: { etiology: null, givenNames: 'Ana' }, headers: { 'if-match': 'W/"1"' } }),
      200,
    );
    assert.equal(cleared.body.etiology, undefined);
    assert.equal(cleared.body.givenNames, 'Ana');
  });

  it('moves the document guard when a correction changes the document', async () => {
    const oldNumber = nextDocument();
    const newNumber = nextDocument();
    const p = await register(a, { documentNumber: oldNumber });
    const taken = await register(a);
    const clash = await call(a, 'PATCH', `/pacientes/${p.body.id}`, {
      json: { documentNumber: taken.body.documentNumber },
      headers: { 'if-match': 'W/"0"' },
    });
    expectStatus(clash, 409, 'duplicate-document');
    expectStatus(
      await call(a, 'PATCH', `/pacientes/${p.body.id}`, { json: { documentNumber: newNumber }, headers: { 'if-match': 'W/"0"' } }),
      200,
    );
    await register(a, { documentNumber: oldNumber }); // freed
    expectStatus(await call(a, 'POST', '/pacientes', { json: registration({ documentNumber: newNumber }) }), 409, 'duplicate-document');
  });

  it('changes status with a reason and refuses transitions that make no sense', async () => {
    const p = await register(a);
    const url = `/pacientes/${p.body.id}/estado`;
    expectStatus(await call(a, 'POST', url, { json: { status: 'hospitalized' } }), 422);
    const hospitalized = expectStatus(await call(a, 'POST', url, { json: { status: 'hospitalized', reason: 'pneumonia' } }), 200);
    assert.equal(hospitalized.body.status, 'hospitalized');
    assert.equal(hospitalized.body.statusReason, 'pneumonia');
    expectStatus(await call(a, 'POST', url, { json: { status: 'deceased', reason: 'septic shock' } }), 200);
    const refused = expectStatus(
      await call(a, 'POST', url, { json: { status: 'active', reason: 'error' } }),
      409,
      'invalid-status-transition',
    );
    assert.deepEqual(refused.body.allowed, []);
  });

  it('records dry weight, serology (isolation), allergies and coverage', async () => {
    const p = await register(a);
    const base = `/pacientes/${p.body.id}`;
    const weighed = expectStatus(
      await call(a, 'POST', `${base}/peso-seco`, { json: { dryWeightKg: 61.5, prescribedBy: 'Dr. Ruiz' } }),
      201,
    );
    assert.equal(weighed.body.dryWeightKg, 61.5);
    assert.equal(weighed.body.dryWeightHistory.length, 2);
    expectStatus(await call(a, 'POST', `${base}/peso-seco`, { json: { dryWeightKg: 4 } }), 422);
    const hcv = expectStatus(
      await call(a, 'POST', `${base}/serologias`, { json: { test: 'antiHCV', result: 'positive', sampleDate: '2025-02-01' } }),
      201,
    );
    assert.deepEqual(hcv.body.isolation, ['HCV']);
    const allergic = expectStatus(
      await call(a, 'POST', `${base}/alergias`, { json: { substance: 'Penicilina', severity: 'severe' } }),
      201,
    );
    // Every new entry points at a record that exists: the patient record, which lists it.
    for (const created of [weighed, hcv, allergic]) {
      assert.equal(created.headers.get('location'), base);
      expectStatus(await call(a, 'GET', created.headers.get('location')!), 200);
    }
    expectStatus(await call(a, 'POST', `${base}/alergias`, { json: { substance: 'PENICILINA' } }), 409, 'allergy-already-recorded');
    const covered = expectStatus(
      await call(a, 'POST', `${base}/coberturas`, { json: { payerName: 'EsSalud', memberNumber: 'A-123', validFrom: '2025-01-01' } }),
      201,
    );
    assert.equal(covered.headers.get('location'), base);
    const coverageId = covered.body.coverages[0].coverageId as string;
    const ended = expectStatus(
      await call(a, 'POST', `${base}/coberturas/${coverageId}/fin`, { json: { endDate: '2025-03-01', reason: 'changed plan' } }),
      200,
    );
    assert.equal(ended.body.coverages[0].status, 'ended');
    expectStatus(await call(a, 'POST', `${base}/coberturas`, { json: { memberNumber: 'A-1', validFrom: '2025-01-01' } }), 422);
  });

  it('follows a vascular access from creation to removal, keeping one primary', async () => {
    const p = await register(a);
    const base = `/pacientes/${p.body.id}/accesos-vasculares`;
    const catheter = expectStatus(
      await call(a, 'POST', base, { json: { type: 'tunneledCVC', side: 'right', site: 'internal jugular', creationDate: '2024-11-01' } }),
      201,
    );
    const cvc = catheter.body.vascularAccesses[0];
    assert.deepEqual([cvc.status, cvc.primary], ['active', true]);
    const withFistula = expectStatus(
      await call(a, 'POST', base, { json: { type: 'AVF', side: 'left', site: 'radiocephalic', creationDate: '2024-12-01' } }),
      201,
    );
    const avf = withFistula.body.vascularAccesses[1];
    assert.deepEqual([avf.status, avf.primary], ['maturing', false]);
    const active = expectStatus(
      await call(a, 'POST', `${base}/${avf.accessId}/estado`, { json: { status: 'active', date: '2025-02-01', primary: true } }),
      200,
    );
    assert.deepEqual(
      active.body.vascularAccesses.map((x: Json) => [x.status, x.primary]),
      [
        ['active', false],
        ['active', true],
      ],
    );
    assert.equal(active.body.vascularAccesses[1].firstCannulationDate, '2025-02-01');
    expectStatus(await call(a, 'POST', `${base}/${cvc.accessId}/estado`, { json: { status: 'removed', date: '2025-02-10' } }), 422);
    const removed = expectStatus(
      await call(a, 'POST', `${base}/${cvc.accessId}/estado`, {
        json: { status: 'removed', date: '2025-02-10', reason: 'fistula in use' },
      }),
      200,
    );
    assert.equal(removed.body.vascularAccesses[0].statusReason, 'fistula in use');
    expectStatus(
      await call(a, 'POST', `${base}/${cvc.accessId}/estado`, { json: { status: 'active', date: '2025-02-11' } }),
      409,
      'invalid-access-transition',
    );
    expectStatus(await call(a, 'POST', `${base}/${cvc.accessId}/principal`), 409, 'vascular-access-not-active');
  });

  it('creates once per Idempotency-Key and replays the first answer', async () => {
    const body = registration();
    const key = { 'idempotency-key': `register-${body.documentNumber}` };
    const first = expectStatus(await call(a, 'POST', '/pacientes', { json: body, headers: key }), 201);
    const second = expectStatus(await call(a, 'POST', '/pacientes', { json: body, headers: key }), 201);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.headers.get('location'), first.headers.get('location'));
    expectStatus(
      await call(a, 'POST', '/pacientes', { json: { ...body, givenNames: 'Otra' }, headers: key }),
      422,
      'idempotency-key-reused',
    );
    const found = expectStatus(await call(a, 'GET', `/pacientes?q=${body.documentNumber}`), 200);
    assert.equal(found.body.items.length, 1);
  });
});
