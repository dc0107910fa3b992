// A long clinical history: the patient document keeps only the latest entries of each list (LIMITS.patientRecord), so
// it stays small however long the history grows, while every entry stays readable at its list's own path, page by page,
// with later changes (a coverage ended, an access failed) applied also to entries the document no longer keeps.
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/limits.js';
import { PACIENTES_PROJECTION, PATIENTS } from '../../src/projections/pacientes/pacientesProjection.js';
import { expectStatus, startPacientesWorld, type Json, type PacientesWorld } from './pacientesWorld.js';

const caps = LIMITS.patientRecord;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

describe('patient lists that outgrow the patient document', function () {
  this.timeout(120_000);
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld();
  });
  after(async () => world?.close());

  /** Every entry of a list, walking its pages. */
  async function everyEntry(base: string, path: string, limit: number): Promise<Json[]> {
    const entries: Json[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = expectStatus(await world.call(world.a, 'GET', `${base}${path}?limit=${limit}${query}`), 200);
      entries.push(...(page.body.items as Json[]));
      cursor = page.body.nextCursor;
    } while (cursor);
    return entries;
  }

  it('keeps the patient document bounded and every entry reachable', async () => {
    const serology = range(50).map((n) => ({ test: 'HBsAg', result: 'negative', sampleDate: day(n) }));
    const patient = await world.register(world.a, { serology });
    const id = patient.body.id as string;
    const base = `/pacientes/${id}`;
    const post = async (path: string, json: Json) => expectStatus(await world.call(world.a, 'POST', `${base}${path}`, { json }), 201);
    const change = async (path: string, json: Json) => expectStatus(await world.call(world.a, 'POST', `${base}${path}`, { json }), 200);

    for (const n of range(40)) await post('/peso-seco', { dryWeightKg: 60 + n / 10, effectiveDate: day(n) });
    for (const n of range(caps.allergies + 5)) await post('/alergias', { substance: `substance ${n}` });
    const coverageIds: string[] = [];
    const addCoverage = async (n: number) => {
      const answer = await post('/coberturas', { payerName: `payer ${n}`, memberNumber: String(n), validFrom: day(n) });
      coverageIds.push((answer.body.coverages as Json[]).at(-1)!.coverageId);
    };
    for (const n of range(caps.coverages + 1)) await addCoverage(n); // the oldest (active) leaves the document
    await change(`/coberturas/${coverageIds[0]}/fin`, { endDate: day(100), reason: 'left the document active' });
    await change(`/coberturas/${coverageIds[5]}/fin`, { endDate: day(100), reason: 'ended while in the document' });
    await addCoverage(caps.coverages + 1); // the ended one leaves before any active one
    const accessIds: string[] = [];
    for (const n of range(caps.vascularAccesses + 1)) {
      const answer = await post('/accesos-vasculares', { type: 'AVG', side: 'left', site: `site ${n}`, creationDate: day(n) });
      accessIds.push((answer.body.vascularAccesses as Json[]).at(-1)!.accessId);
    }
    await change(`/accesos-vasculares/${accessIds[0]}/estado`, { status: 'active', date: day(200) });

    const read = expectStatus(await world.call(world.a, 'GET', base), 200).body;
    assert.deepEqual(read.entryCounts, {
      dryWeightHistory: 41, // the one given at registration, and 40
      serology: 50,
      allergies: caps.allergies + 5,
      coverages: caps.coverages + 2,
      vascularAccesses: caps.vascularAccesses + 1,
    });
    assert.deepEqual(
      (read.dryWeightHistory as Json[]).map((w) => w.effectiveDate),
      range(caps.dryWeightHistory).map((n) => day(40 - caps.dryWeightHistory + n)),
    );
    assert.equal(read.dryWeightKg, 63.9);
    assert.equal((read.serology as Json[]).length, caps.serology);
    assert.equal((read.allergies as Json[])[0]?.substance, 'substance 5');
    assert.deepEqual(
      (read.coverages as Json[]).map((c) => c.coverageId),
      coverageIds.filter((_, n) => n !== 0 && n !== 5),
    );
    assert.deepEqual(
      (read.vascularAccesses as Json[]).map((a) => a.accessId),
      accessIds.slice(1),
    );

    const stored = await world.server.services.projections
      .collection<Json & { tenantId: string; id: string }>(PACIENTES_PROJECTION, PATIENTS)
      .get(world.server.admin.companyId, id);
    const bytes = Buffer.byteLength(JSON.stringify(stored));
    assert.ok(bytes < 100_000, `the patient document holds ${bytes} bytes`);

    const weights = await everyEntry(base, '/peso-seco', 7);
    assert.deepEqual(
      weights.map((w) => w.dryWeightKg),
      [62.5, ...range(40).map((n) => 60 + n / 10)],
    );
    assert.deepEqual(
      (await everyEntry(base, '/serologias', 200)).map((s) => s.sampleDate),
      range(50).map(day),
    );
    assert.deepEqual(
      (await everyEntry(base, '/alergias', 30)).map((a) => a.substance),
      range(caps.allergies + 5).map((n) => `substance ${n}`),
    );
    const coverages = await everyEntry(base, '/coberturas', 5);
    assert.deepEqual(
      coverages.map((c) => [c.coverageId, c.status]),
      coverageIds.map((c, n) => [c, n === 0 || n === 5 ? 'ended' : 'active']),
    );
    const accesses = await everyEntry(base, '/accesos-vasculares', 50);
    assert.deepEqual(
      accesses.map((a) => [a.accessId, a.status, a.primary]),
      accessIds.map((a, n) => [a, n === 0 ? 'active' : 'maturing', n === 0]),
    );

    // The same documents and entries when the projection is rebuilt from the log.
    await world.server.services.projections.rebuild(PACIENTES_PROJECTION);
    assert.deepEqual(expectStatus(await world.call(world.a, 'GET', base), 200).body, read);
    assert.deepEqual(await everyEntry(base, '/coberturas', 200), coverages);
    assert.deepEqual(await everyEntry(base, '/accesos-vasculares', 7), accesses);
  });

  it('refuses a cursor of another list or a malformed one with 400', async () => {
    const patient = await world.register(world.a);
    const base = `/pacientes/${patient.body.id}`;
    for (const n of range(3)) {
      expectStatus(await world.call(world.a, 'POST', `${base}/alergias`, { json: { substance: `latex ${n}` } }), 201);
    }
    const first = expectStatus(await world.call(world.a, 'GET', `${base}/alergias?limit=2`), 200);
    assert.equal((first.body.items as Json[]).length, 2);
    const cursor = encodeURIComponent(first.body.nextCursor);
    const rest = expectStatus(await world.call(world.a, 'GET', `${base}/alergias?limit=2&cursor=${cursor}`), 200);
    assert.deepEqual(
      (rest.body.items as Json[]).map((a) => a.substance),
      ['latex 2'],
    );
    assert.equal(rest.body.nextCursor, null);
    expectStatus(await world.call(world.a, 'GET', `${base}/coberturas?cursor=${cursor}`), 400, 'invalid-cursor');
    expectStatus(await world.call(world.a, 'GET', `${base}/alergias?cursor=not-a-cursor`), 400, 'invalid-cursor');
  });
});
