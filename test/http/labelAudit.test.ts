// The dialyzer label (a PDF) shows the patient's name and document: its read is audited naming the patient, like the
// session sheet, so "who read this patient's data" finds it (issue 20 item 6).
import assert from 'node:assert/strict';
import { accessLogStream, RECORD_ACCESSED } from '../../src/http/accessAudit.js';
import { unique } from './staffWorld.js';
import { expectStatus, startFiltrosWorld, type FiltrosWorld, type Json } from './filtrosWorld.js';

describe('Access audit over HTTP: the dialyzer label names its patient', () => {
  let w: FiltrosWorld;
  before(async () => {
    w = await startFiltrosWorld();
  });
  after(async () => w?.close());

  it('a label read leaves an entry naming the patient the label shows', async () => {
    const patientId = await w.patient(w.a);
    const dialyzerId = await w.assigned(w.a, patientId);
    const correlationId = unique('label-read-');
    const label = await w.call(w.a, 'GET', `/filtros-dialisis/${dialyzerId}/etiqueta`, { headers: { 'x-request-id': correlationId } });
    expectStatus(label, 200);

    await w.server.flushAccessAudit();
    const events = await w.server.services.events.readStream(
      accessLogStream(w.server.admin.companyId, w.server.services.now().toISOString()),
    );
    const entries = events.filter((e) => e.type === RECORD_ACCESSED && e.metadata.correlationId === correlationId);
    assert.deepEqual(
      entries.map((e) => e.data as Json).map((e) => [e.recordType, e.recordId, e.status, e.outcome, e.patientIds]),
      [['dialyzerLabel', dialyzerId, 200, 'allowed', [patientId]]],
    );
  });
});
