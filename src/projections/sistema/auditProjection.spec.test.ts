// Spec of the audit trail projection: reads, refusals, changes and account events become entries of the right trail,
// attributed to the patient their record belongs to.
import assert from 'node:assert/strict';
import { at, projectionSpec, streamOf, type ProjectionOutcome } from '../runner/projectionSpec.js';
import { auditProjection } from './auditProjection.js';
import { AUDIT_TRAIL, entryKeyOfRow, entryOf, type AuditEntry, type AuditEntryDoc, type AuditPatientRowDoc } from './auditEntryDoc.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

const given = projectionSpec(auditProjection);
const E = AUDIT_TRAIL.entries;
const P = AUDIT_TRAIL.byPatient;
const patient = streamOf('t1', 'patient', 'p1');
const note = streamOf('t1', 'nursingNote', 'n1');
const session = streamOf('t1', 'dialysisSession', 's1');
const accessLog = streamOf('t1', 'accessLog', '20250303');
const user = streamOf('platform', 'user', 'u9');
const company = streamOf('platform', 'company', 't1');
const client = streamOf('platform', 'apiClient', 'ac1');

const registered = { type: 'PatientRegistered', data: { patientId: 'p1', givenNames: 'Ana' } };
const read = (data: object, metadata = {}) => ({
  type: 'RecordAccessed',
  data: { route: '/pacientes/{id}', method: 'GET', status: 200, outcome: 'allowed', count: 1, lastAt: '2025-03-03T09:00:00.000Z', ...data },
  metadata: { occurredAt: '2025-03-03T09:00:00.000Z', ip: '10.0.0.9', userAgent: 'curl/8', ...metadata },
});
/** An entry's document key: the position of its event, zero-padded (the spec's events are at 1, 2, 3...). */
const keyAt = (position: number) => String(position).padStart(20, '0');
const what = (e: AuditEntry) => [e.kind, e.action, e.outcome, e.recordType, e.recordId, e.patientIds];

/** A patient's trail as the patient filter reads it: their rows, newest first, then the entries they point to. */
async function patientTrail(outcome: ProjectionOutcome, patientId: string, filter = {}): Promise<AuditEntry[]> {
  const rows = await outcome.thenFind<AuditPatientRowDoc>(P, { patientId, ...filter }, () => {}, { sort: { at: -1, id: -1 } });
  const docs = await Promise.all(rows.map((row) => outcome.then<AuditEntryDoc>(E, entryKeyOfRow(row))));
  for (const [i, doc] of docs.entries()) {
    const row = rows[i]!;
    // The row repeats what the other filters compare, so a patient's trail filters as the whole trail does.
    assert.deepEqual(
      [row.at, row.action, row.outcome, row.actor, row.route, row.recordType, row.recordId],
      [doc.at, doc.action, doc.outcome, doc.actor, doc.route, doc.recordType, doc.recordId],
    );
  }
  return docs.map(entryOf);
}

describe('audit trail projection', () => {
  it("every change of a patient's records is an entry of that patient, the ones that do not name them too", async () => {
    const outcome = given(
      patient(registered),
      note(
        { type: 'NursingNoteRecorded', data: { noteId: 'n1', patientId: 'p1', text: 'ok' } },
        at(
          '2025-03-03T10:00:00.000Z',
          { type: 'NursingNoteAmended', data: { noteId: 'n1', text: 'better' } },
          { reason: 'typo', actor: 'u2' },
        ),
      ),
    );
    assert.deepEqual((await patientTrail(outcome, 'p1')).map(what), [
      ['change', 'NursingNoteAmended', 'succeeded', 'nursingNote', 'n1', ['p1']],
      ['change', 'NursingNoteRecorded', 'succeeded', 'nursingNote', 'n1', ['p1']],
      ['change', 'PatientRegistered', 'succeeded', 'patient', 'p1', ['p1']],
    ]);
    const amended = entryOf(await outcome.then<AuditEntryDoc>(E, keyAt(3)));
    assert.deepEqual(
      [amended.entryId, amended.actor, amended.reason, amended.at, amended.position],
      ['e3', 'u2', 'typo', '2025-03-03T10:00:00.000Z', 3],
    );
  });

  it('a read names its patients; a refusal is attributed to the patient of the record it asked for, in this company only', async () => {
    const outcome = given(
      session({ type: 'DialysisSessionScheduled', data: { sessionId: 's1', patientId: 'p1' } }),
      accessLog(
        read({ recordType: 'patient', recordId: 'p1', patientIds: ['p1'] }),
        read({ recordType: 'patient', recordId: 'p1', status: 403, outcome: 'denied' }, { actor: 'intruder' }),
        read({ recordType: 'dialysisSession', recordId: 's1', route: '/dialisis/sesiones/{id}', status: 404, outcome: 'not-found' }),
        read({
          recordType: 'dialysisSession',
          recordId: 's-elsewhere',
          route: '/dialisis/sesiones/{id}',
          status: 404,
          outcome: 'not-found',
        }),
        read({
          recordType: 'pacientes',
          recordId: 'p1',
          patientIds: ['p1'],
          route: '/pacientes/{id}/notas',
          method: 'POST',
          status: 403,
          outcome: 'denied',
        }),
      ),
    );
    assert.deepEqual((await patientTrail(outcome, 'p1')).filter((e) => e.kind === 'read').map(what), [
      ['read', 'write', 'denied', 'pacientes', 'p1', ['p1']],
      ['read', 'read', 'not-found', 'dialysisSession', 's1', ['p1']],
      ['read', 'read', 'denied', 'patient', 'p1', ['p1']],
      ['read', 'read', 'allowed', 'patient', 'p1', ['p1']],
    ]);
    assert.deepEqual(
      (await patientTrail(outcome, 'p1', { outcome: 'denied', route: '/pacientes/{id}' })).map((e) => e.actor),
      ['intruder'],
    );
    const refused = entryOf(await outcome.then<AuditEntryDoc>(E, keyAt(3)));
    assert.deepEqual(
      [refused.actor, refused.ip, refused.userAgent, refused.route, refused.status],
      ['intruder', '10.0.0.9', 'curl/8', '/pacientes/{id}', 403],
    );
    assert.deepEqual(entryOf(await outcome.then<AuditEntryDoc>(E, keyAt(5))).patientIds, []);
    assert.deepEqual(what(entryOf(await outcome.then<AuditEntryDoc>(E, keyAt(6)))), ['read', 'write', 'denied', 'pacientes', 'p1', ['p1']]);
  });

  it("sign-in and account events are the platform's; those about a company are in its trail too", async () => {
    const outcome = given(
      user(
        { type: 'LoginAttemptReserved', data: { consecutiveFailures: 0, at: '2025-03-03T08:00:00.000Z' } },
        { type: 'LoginFailed', data: { reason: 'wrong-password', consecutiveFailures: 1, at: '2025-03-03T08:00:00.000Z' } },
        { type: 'TwoFactorReset', data: {} },
      ),
      company({ type: 'MembershipChanged', data: { userId: 'u9', roles: ['auditor'] } }),
      client(
        { type: 'ApiClientCreated', data: { clientId: 'ac1', companyId: 't1', name: 'lab', roles: ['lab'], secretHash: 'h' } },
        { type: 'ApiClientSecretRotated', data: { secretHash: 'h2', previousValidUntil: null } },
      ),
    );
    const platform = outcome.in(PLATFORM_DOCS);
    await platform.thenFind<AuditEntryDoc>(
      E,
      {},
      (docs) =>
        assert.deepEqual(
          docs.map((d) => [d.kind, d.action, d.outcome, d.recordType, d.recordId]),
          [
            ['account', 'ApiClientSecretRotated', 'succeeded', 'apiClient', 'ac1'],
            ['account', 'ApiClientCreated', 'succeeded', 'apiClient', 'ac1'],
            ['account', 'MembershipChanged', 'succeeded', 'company', 't1'],
            ['account', 'TwoFactorReset', 'succeeded', 'user', 'u9'],
            ['account', 'LoginFailed', 'failed', 'user', 'u9'],
          ],
        ),
      { sort: { at: -1, id: -1 } },
    );
    await outcome.in('t1').thenFind<AuditEntryDoc>(
      E,
      {},
      (docs) =>
        assert.deepEqual(
          docs.map((d) => d.action),
          ['ApiClientSecretRotated', 'ApiClientCreated', 'MembershipChanged'],
        ),
      { sort: { at: -1, id: -1 } },
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = [
      ...patient(registered),
      ...note({ type: 'NursingNoteRecorded', data: { noteId: 'n1', patientId: 'p1' } }),
      ...accessLog(read({ recordType: 'patient', recordId: 'p1', patientIds: ['p1'] })),
    ];
    await given(events, events[1]!, events[2]!).thenFind<AuditPatientRowDoc>(P, { patientId: 'p1' }, (docs) =>
      assert.equal(docs.length, 3),
    );
    await given(events).thenIdempotent();
  });
});
