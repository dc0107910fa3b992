// A legal hold on a patient: placed and lifted with a reason, once at a time; while held, no record of the patient
// may be disposed of, whatever its retention period says.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { legalHoldDecider, mayDispose } from './legalHold.js';
import type { LegalHoldCommand, LegalHoldEvent } from './legalHoldEvents.js';

const given = scenario(legalHoldDecider);
const NOW = '2026-03-10T14:00:00.000Z';
const envelope = { at: NOW, actor: 'auditor-1', aggregateId: 'patient-1', tenantId: 'clinic1' };
const place = (reason = 'Demanda 123-2026, juzgado civil', reference: string | null = 'EXP-123-2026', exists = true): LegalHoldCommand => ({
  ...envelope,
  type: 'PlaceLegalHold',
  data: { reason, reference, patient: exists ? { exists: true } : null },
});
const lift = (reason = 'Sentencia firme, caso archivado'): LegalHoldCommand => ({ ...envelope, type: 'LiftLegalHold', data: { reason } });
const placed: LegalHoldEvent = {
  type: 'LegalHoldPlaced',
  data: { patientId: 'patient-1', reason: 'Demanda 123-2026, juzgado civil', reference: 'EXP-123-2026' },
};
const lifted: LegalHoldEvent = { type: 'LegalHoldLifted', data: { patientId: 'patient-1', reason: 'Sentencia firme, caso archivado' } };

describe('legal hold decider', () => {
  it('places a hold on a patient of the company, with its reason and reference', () => {
    given().when(place()).then(placed);
    given()
      .when(place('  Requerimiento fiscal  ', '  '))
      .then({ type: 'LegalHoldPlaced', data: { patientId: 'patient-1', reason: 'Requerimiento fiscal', reference: null } });
  });

  it('refuses a hold on a patient the company does not have (404)', () => {
    given()
      .when(place(undefined, undefined, false))
      .thenError('not-found', (e) => assert.equal(e.status, 404));
  });

  it('requires a reason to place and to lift', () => {
    given()
      .when(place('   '))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason']));
    given(placed)
      .when(lift(' '))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason']));
  });

  it('holds once at a time: a second hold is a conflict, a lift without a hold too', () => {
    given(placed)
      .when(place())
      .thenError('legal-hold-in-force', (e) => assert.equal(e.status, 409));
    given()
      .when(lift())
      .thenError('no-legal-hold', (e) => assert.equal(e.status, 409));
    given(placed, lifted).when(lift()).thenError('no-legal-hold');
  });

  it('lifts a hold, and places a new one after', () => {
    given(placed).when(lift()).then(lifted);
    given(placed, lifted).when(place()).then(placed);
  });
});

describe('retention: what a future purge may dispose of', () => {
  const lastEncounter = '2010-01-15T10:00:00.000Z';
  it('keeps a record whose period has not ended', () => {
    assert.deepEqual(mayDispose({ held: false, periodYears: 15, countedFrom: lastEncounter, now: '2024-06-01T00:00:00.000Z' }), {
      dispose: false,
      because: 'retention-period',
      keepUntil: '2025-01-15T10:00:00.000Z',
    });
  });

  it('never disposes of anything of a patient under legal hold, even long after the period', () => {
    assert.deepEqual(mayDispose({ held: true, periodYears: 15, countedFrom: lastEncounter, now: '2060-01-01T00:00:00.000Z' }), {
      dispose: false,
      because: 'legal-hold',
    });
  });

  it('lets a record go to review only once its period has ended and no hold is in force', () => {
    assert.deepEqual(mayDispose({ held: false, periodYears: 15, countedFrom: lastEncounter, now: '2025-01-15T10:00:00.000Z' }), {
      dispose: true,
    });
  });
});
