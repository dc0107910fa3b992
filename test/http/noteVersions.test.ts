// An amendment storm: a note's versions live in their own collection, so the note document stays small however
// often it is amended; every version stays readable, page by page, and the note shows its latest ones.
import assert from 'node:assert/strict';
import { NURSING_NOTES, PACIENTES_PROJECTION } from '../../src/projections/pacientes/pacientesProjection.js';
import { LIMITS } from '../../src/limits.js';
import { expectStatus, startPacientesWorld, type Json, type PacientesWorld } from './pacientesWorld.js';

/** More versions than the ~486 of full-size notes that once took a note document past MongoDB's 16 MiB. */
const VERSIONS = 600;

describe('nursing note versions', function () {
  this.timeout(120_000);
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld();
  });
  after(async () => world?.close());

  it('keeps the note document small through 600 amendments and serves every version', async () => {
    const patient = await world.register(world.a);
    const base = `/pacientes/${patient.body.id}/notas`;
    const long = 'x'.repeat(2000);
    const note = expectStatus(await world.call(world.a, 'POST', base, { json: { noteType: 'general', text: `v1 ${long}` } }), 201);
    const noteId = note.body.id as string;
    for (let v = 2; v <= VERSIONS; v++) {
      expectStatus(
        await world.call(world.a, 'POST', `${base}/${noteId}/enmiendas`, { json: { text: `v${v} ${long}`, reason: `r${v}` } }),
        201,
      );
    }
    const stored = await world.server.services.projections
      .collection<Json & { tenantId: string; id: string }>(PACIENTES_PROJECTION, NURSING_NOTES)
      .get(world.server.admin.companyId, noteId);
    const bytes = Buffer.byteLength(JSON.stringify(stored));
    assert.ok(bytes < 10_000, `the note document holds ${bytes} bytes`);

    const read = expectStatus(await world.call(world.a, 'GET', `${base}/${noteId}`), 200);
    assert.equal(read.body.versionCount, VERSIONS);
    const inline = LIMITS.nursingNotes.versionsInline;
    assert.deepEqual(
      (read.body.versions as Json[]).map((v) => v.version),
      Array.from({ length: inline }, (_, i) => VERSIONS - inline + 1 + i),
    );

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = expectStatus(
        await world.call(world.a, 'GET', `${base}/${noteId}/versiones?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        200,
      );
      for (const v of page.body.items as Json[]) {
        seen.push(v.version);
        assert.ok(String(v.text).startsWith(`v${v.version} `));
      }
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      Array.from({ length: VERSIONS }, (_, i) => i + 1),
    );
  });
});
