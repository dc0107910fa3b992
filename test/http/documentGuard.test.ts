// A registration that crashed between claiming the identity document and appending the patient must not keep the
// document taken forever: after the grace period the next registration of that document takes the claim over.
import assert from 'node:assert/strict';
import { handleCommand } from '../../src/commands/handleCommand.js';
import { documentGuardId } from '../../src/commands/pacientes/patientWrites.js';
import { patientDocumentDecider } from '../../src/commands/pacientes/patientDocument.js';
import { LIMITS } from '../../src/limits.js';
import { streamName } from '../../src/stores/eventStore.js';
import { expectStatus, nextDocument, registration, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';

describe('orphaned identity-document claims', () => {
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld();
  });
  after(async () => world?.close());

  it('refuses the document while the claim is young, and takes it over once the grace period is over', async () => {
    const { server } = world;
    const tenantId = server.admin.companyId;
    const documentNumber = nextDocument();
    const guardId = documentGuardId(tenantId, 'DNI', documentNumber);
    // The crash: the claim landed, the patient it names never did.
    await handleCommand(
      server.services.events,
      patientDocumentDecider,
      {
        type: 'ClaimPatientDocument',
        aggregateId: guardId,
        data: { patientId: 'crashed-registration', documentType: 'DNI', documentNumber },
      },
      { tenantId, actor: 'u', sessionId: null, correlationId: 'c', ip: null, userAgent: null, at: server.clock.now().toISOString() },
    );

    const body = registration({ documentType: 'DNI', documentNumber });
    expectStatus(await world.call(world.a, 'POST', '/pacientes', { json: body }), 409, 'duplicate-document');

    server.clock.advance(LIMITS.documentGuard.orphanedClaimGraceSeconds * 1000 + 1000);
    const token = await server.signInAndSelect(server.admin);
    const created = expectStatus(await world.call(token, 'POST', '/pacientes', { json: body }), 201);

    const guard = await server.services.events.readStream(streamName(tenantId, 'patientDocument', guardId));
    assert.deepEqual(
      guard.map((e) => [e.type, e.data.patientId, e.data.reason ?? null]),
      [
        ['PatientDocumentClaimed', 'crashed-registration', null],
        ['PatientDocumentReleased', 'crashed-registration', 'orphaned-claim'],
        ['PatientDocumentClaimed', created.body.id, null],
      ],
    );
    // The document is held again: a second registration is a duplicate.
    expectStatus(await world.call(token, 'POST', '/pacientes', { json: registration({ documentType: 'DNI', documentNumber }) }), 409);
  });

  it('never takes over a document whose patient exists', async () => {
    const { server } = world;
    const first = await world.register(world.a);
    server.clock.advance(LIMITS.documentGuard.orphanedClaimGraceSeconds * 1000 + 1000);
    const token = await server.signInAndSelect(server.admin);
    const again = registration({ documentType: first.body.documentType, documentNumber: first.body.documentNumber });
    expectStatus(await world.call(token, 'POST', '/pacientes', { json: again }), 409, 'duplicate-document');
  });
});
