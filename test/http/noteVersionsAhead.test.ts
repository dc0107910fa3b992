// A note's versions are written back before the note itself (a failure in between must not lose them), so on a
// remote read store a reader can meet a version the note does not have yet: reads show the note as it is.
import assert from 'node:assert/strict';
import { versionDoc, type NoteVersionDoc } from '../../src/projections/pacientes/noteDoc.js';
import { NOTE_VERSIONS, PACIENTES_PROJECTION } from '../../src/projections/pacientes/pacientesProjection.js';
import { expectStatus, startPacientesWorld, type Json, type PacientesWorld } from './pacientesWorld.js';

describe('nursing note versions ahead of their note', () => {
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld();
  });
  after(async () => world?.close());

  it('shows only the versions the note has reached', async () => {
    const patient = await world.register(world.a);
    const base = `/pacientes/${patient.body.id}/notas`;
    const note = expectStatus(await world.call(world.a, 'POST', base, { json: { noteType: 'general', text: 'v1' } }), 201);
    const noteId = note.body.id as string;
    expectStatus(await world.call(world.a, 'POST', `${base}/${noteId}/enmiendas`, { json: { text: 'v2', reason: 'r2' } }), 201);
    const tenantId = world.server.admin.companyId;
    const pending = {
      version: 3,
      noteType: 'general' as const,
      text: 'v3',
      occurredAt: note.body.occurredAt,
      recordedAt: note.body.recordedAt,
    };
    await world.server.services.projections
      .collection<NoteVersionDoc>(PACIENTES_PROJECTION, NOTE_VERSIONS)
      .replace(versionDoc(tenantId, noteId, { ...pending, recordedBy: world.actorA, reason: 'r3' }, Number.MAX_SAFE_INTEGER));

    const read = expectStatus(await world.call(world.a, 'GET', `${base}/${noteId}`), 200);
    assert.equal(read.body.versionCount, 2);
    assert.deepEqual(
      (read.body.versions as Json[]).map((v) => v.text),
      ['v1', 'v2'],
    );
    const page = expectStatus(await world.call(world.a, 'GET', `${base}/${noteId}/versiones`), 200);
    assert.deepEqual(
      (page.body.items as Json[]).map((v) => v.text),
      ['v1', 'v2'],
    );
  });
});
