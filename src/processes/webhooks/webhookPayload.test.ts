// What a webhook carries: only company record events, as the feed envelope, never a secret field.
import assert from 'node:assert/strict';
import { feedEnvelope, isCompanyRecordEvent, selects, webhookBody, type FeedEnvelope } from './webhookPayload.js';
import { recordedEvent } from '../../../test/support/eventFixtures.js';

const event = recordedEvent;

describe('webhook payloads', () => {
  it('sends company record events only: no platform, access log, claim or snapshot events', () => {
    assert.equal(isCompanyRecordEvent(event('t1.patient-p1', 'PatientRegistered')), true);
    assert.equal(isCompanyRecordEvent(event('platform.user-u1', 'UserRegistered')), false);
    assert.equal(isCompanyRecordEvent(event('t1.accessLog-20250301', 'RecordAccessed')), false);
    assert.equal(isCompanyRecordEvent(event('t1.jobPositionCode-x', 'UniqueValueClaimed')), false);
    assert.equal(isCompanyRecordEvent(event('t1.patientSnapshot-p1', 'AggregateSnapshotTaken')), false);
  });

  it('wraps the event in the feed envelope, with the patient it belongs to and without secret fields', () => {
    assert.deepEqual(feedEnvelope(event('t1.patient-p1', 'PatientRegistered', { name: 'Ana' })), {
      id: 'e1',
      position: '42',
      type: 'PatientRegistered',
      recordType: 'patient',
      recordId: 'p1',
      patientId: 'p1',
      occurredAt: '2025-03-01T10:00:00.000Z',
      actor: 'u1',
      correlationId: 'c1',
      reason: null,
      data: { name: 'Ana' },
    });
    const note = feedEnvelope(event('t1.nursingNote-n1', 'NoteWritten', { patientId: 'p9' }));
    assert.equal(note.patientId, 'p9');
    const rotated = JSON.parse(
      webhookBody(event('t1.webhookEndpoint-w1', 'WebhookSecretRotated', { secret: 's', previousSecret: 'p', previousValidUntil: 'x' })),
    ) as { type: string; timestamp: string; data: FeedEnvelope };
    assert.deepEqual(rotated.data.data, { previousValidUntil: 'x' });
    assert.equal(rotated.type, 'WebhookSecretRotated');
    assert.equal(rotated.timestamp, '2025-03-01T10:00:00.000Z');
  });

  it("sends a company module's records and definitions, selected by record type or type, with the record's patient", () => {
    const record = event('t1.moduleRecord-r1', 'ModuleRecordCreated', { module: 'vacuna-hb', patientId: 'p1', values: { dose: 1 } });
    assert.equal(isCompanyRecordEvent(record), true);
    assert.equal(isCompanyRecordEvent(event('t1.generatedModule-vacuna-hb', 'ModulePublished')), true);
    assert.equal(selects(['moduleRecord'], record) && selects(['ModuleRecordCreated'], record), true);
    assert.equal(selects(['generatedModule'], record), false);
    assert.deepEqual([feedEnvelope(record).recordType, feedEnvelope(record).patientId], ['moduleRecord', 'p1']);
  });

  it('selects by event type, record type or *', () => {
    const e = event('t1.patient-p1', 'PatientRegistered');
    assert.equal(selects(['PatientRegistered'], e), true);
    assert.equal(selects(['patient'], e), true);
    assert.equal(selects(['*'], e), true);
    assert.equal(selects(['dialysisSession', 'PatientCorrected'], e), false);
  });
});
