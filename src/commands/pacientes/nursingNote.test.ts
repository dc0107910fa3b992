import assert from 'node:assert/strict';
import type { CommandEnvelope } from '../decider.js';
import { failedFields, scenario } from '../givenWhenThen.js';
import { nursingNoteDecider, type NursingNoteCommand } from './nursingNote.js';
import { type NursingNoteEvent } from './nursingNoteEvents.js';
import type { SessionFact } from '../dialisis/shared/sessionReference.js';
import { normaliseDocumentNumber, patientDocumentDecider, type PatientDocumentCommand } from './patientDocument.js';

const NOW = '2025-03-10T14:00:00.000Z';
const note = scenario(nursingNoteDecider);
const cmd = <T extends NursingNoteCommand['type']>(type: T, data: Extract<NursingNoteCommand, { type: T }>['data'], actor = 'nurse-1') =>
  ({ type, data, at: NOW, actor, aggregateId: 'n1', tenantId: 'clinic1' }) as Extract<NursingNoteCommand, CommandEnvelope<T>>;

const recorded: NursingNoteEvent = {
  type: 'NursingNoteRecorded',
  data: {
    noteId: 'n1',
    patientId: 'p1',
    authorId: 'nurse-1',
    version: 1,
    noteType: 'pre',
    text: 'Fistula thrill present',
    occurredAt: '2025-03-10T13:30:00.000Z',
  },
};

describe('nursing note decider', () => {
  it('records a note signed by the acting nurse, trimming empty SOAPIE parts', () => {
    note()
      .when(
        cmd('RecordNursingNote', {
          patientId: 'p1',
          patient: { status: 'active' },
          noteType: 'intra',
          occurredAt: '2025-03-10T13:00:00.000Z',
          soapie: { subjective: 'cramps', objective: ' ', plan: 'reduce UF' },
        }),
      )
      .then({
        type: 'NursingNoteRecorded',
        data: {
          noteId: 'n1',
          patientId: 'p1',
          authorId: 'nurse-1',
          version: 1,
          noteType: 'intra',
          occurredAt: '2025-03-10T13:00:00.000Z',
          soapie: { subjective: 'cramps', plan: 'reduce UF' },
        },
      });
  });

  it('refuses a note on a patient the company does not have, an empty note and a future time', () => {
    note()
      .when(cmd('RecordNursingNote', { patientId: 'p9', patient: null, noteType: 'general', text: 'x', occurredAt: NOW }))
      .thenError('not-found', (e) => assert.equal(e.status, 404));
    note()
      .when(
        cmd('RecordNursingNote', {
          patientId: 'p1',
          patient: { status: 'active' },
          noteType: 'general',
          text: ' ',
          occurredAt: '2025-03-11T00:00:00.000Z',
        }),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['text', 'occurredAt']));
  });

  it('amends as a new version with its reason, by whoever amends', () => {
    note(recorded)
      .when(
        cmd(
          'AmendNursingNote',
          { patientId: 'p1', reason: 'wrong arm', noteType: 'pre', text: 'Graft thrill present', occurredAt: '2025-03-10T13:30:00.000Z' },
          'nurse-2',
        ),
      )
      .then({
        type: 'NursingNoteAmended',
        data: {
          noteId: 'n1',
          patientId: 'p1',
          amendedBy: 'nurse-2',
          version: 2,
          reason: 'wrong arm',
          noteType: 'pre',
          text: 'Graft thrill present',
          occurredAt: '2025-03-10T13:30:00.000Z',
        },
      });
  });

  it('keeps what an amendment omits and clears what it sets to null', () => {
    const withSoapie: NursingNoteEvent = { ...recorded, data: { ...recorded.data, soapie: { plan: 'check thrill' } } };
    const [amended] = note(withSoapie)
      .when(cmd('AmendNursingNote', { patientId: 'p1', reason: 'plan withdrawn', soapie: null }))
      .events();
    assert.equal(amended?.data.text, 'Fistula thrill present');
    assert.equal(amended?.data.soapie, undefined);
    assert.equal(amended?.data.occurredAt, '2025-03-10T13:30:00.000Z');
  });

  it('refuses an amendment without reason, without change, or under another patient', () => {
    const same = { noteType: 'pre' as const, text: 'Fistula thrill present', occurredAt: '2025-03-10T13:30:00.000Z' };
    note(recorded)
      .when(cmd('AmendNursingNote', { patientId: 'p1', reason: ' ', ...same, text: 'changed' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason']));
    note(recorded)
      .when(cmd('AmendNursingNote', { patientId: 'p1', reason: 'typo', ...same }))
      .thenError('amendment-without-changes');
    note(recorded)
      .when(cmd('AmendNursingNote', { patientId: 'p2', reason: 'typo', ...same, text: 'x' }))
      .thenError('not-found');
  });

  it('names only a session of its own patient in the company, when recorded and when amended', () => {
    const base = { patientId: 'p1', patient: { status: 'active' as const }, noteType: 'intra' as const, text: 'x', occurredAt: NOW };
    const own = { exists: true as const, patientId: 'p1', date: '2025-03-10' };
    const refusedWith = (session: SessionFact | undefined, message: string) =>
      note()
        .when(cmd('RecordNursingNote', { ...base, dialysisSessionId: 's9', ...(session ? { session } : {}) }))
        .thenError('validation-failed', (e) => assert.deepEqual(e.details?.errors, [{ field: 'dialysisSessionId', message }]));
    refusedWith(undefined, 'no such dialysis session in this company');
    refusedWith({ exists: false }, 'no such dialysis session in this company');
    refusedWith({ ...own, patientId: 'p2' }, 'is a session of another patient');
    note()
      .when(cmd('RecordNursingNote', { ...base, dialysisSessionId: 's1', session: own }))
      .then({
        type: 'NursingNoteRecorded',
        data: {
          noteId: 'n1',
          patientId: 'p1',
          authorId: 'nurse-1',
          version: 1,
          noteType: 'intra',
          text: 'x',
          occurredAt: NOW,
          dialysisSessionId: 's1',
        },
      });
    note(recorded)
      .when(cmd('AmendNursingNote', { patientId: 'p1', reason: 'session', dialysisSessionId: 's2', session: { ...own, patientId: 'p2' } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['dialysisSessionId']));
  });
});

describe('patient document guard', () => {
  const guard = scenario(patientDocumentDecider);
  const claim = (patientId: string): PatientDocumentCommand => ({
    type: 'ClaimPatientDocument',
    data: { patientId, documentType: 'DNI', documentNumber: '45678912' },
    at: NOW,
    actor: 'u',
    aggregateId: 'g',
    tenantId: 't',
  });
  const claimed = {
    type: 'PatientDocumentClaimed' as const,
    data: { patientId: 'p1', documentType: 'DNI' as const, documentNumber: '45678912' },
  };

  it('lets one patient hold a document; a retry by the same patient decides nothing', () => {
    guard()
      .when(claim('p1'))
      .then({ ...claimed, data: { ...claimed.data, claimedAt: NOW } });
    guard(claimed).when(claim('p1')).then();
    guard(claimed)
      .when(claim('p2'))
      .thenError('duplicate-document', (e) => assert.equal(e.details?.existingPatientId, 'p1'));
  });

  it('frees a released document for another patient', () => {
    guard(claimed, { type: 'PatientDocumentReleased', data: { patientId: 'p1' } })
      .when(claim('p2'))
      .then({ ...claimed, data: { ...claimed.data, patientId: 'p2', claimedAt: NOW } });
  });

  it('lets a registration take over a claim whose patient never appeared, once the grace period is over', () => {
    const stale = { ...claimed, data: { ...claimed.data, claimedAt: '2025-01-01T08:00:00.000Z' } };
    const orphan = (at: string, holderExists: boolean): PatientDocumentCommand =>
      ({
        ...claim('p2'),
        at,
        data: { ...claim('p2').data, holder: { exists: holderExists, graceSeconds: 600 } },
      }) as PatientDocumentCommand;
    guard(stale)
      .when(orphan('2025-01-01T08:10:00.000Z', false))
      .then(
        { type: 'PatientDocumentReleased', data: { patientId: 'p1', reason: 'orphaned-claim' } },
        { ...claimed, data: { ...claimed.data, patientId: 'p2', claimedAt: '2025-01-01T08:10:00.000Z' } },
      );
    guard(stale).when(orphan('2025-01-01T08:09:59.000Z', false)).thenError('duplicate-document');
    guard(stale).when(orphan('2025-01-01T09:00:00.000Z', true)).thenError('duplicate-document');
  });

  it('normalises document numbers: case, spaces, dots and dashes do not matter', () => {
    assert.equal(normaliseDocumentNumber(' 12.345.678-k '), '12345678K');
  });
});
