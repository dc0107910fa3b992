// Spec of the Pacientes projection: patients (capped lists spilling into patientEntries) and nursing notes with versions.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { NOTE_VERSIONS, NURSING_NOTES, PATIENTS, pacientesProjection } from './pacientesProjection.js';
import { PATIENT_ENTRIES } from './patientListDocs.js';
import { accessCreated, registered } from '../../commands/pacientes/patientFixtures.js';
import type { PatientDoc } from './patientDoc.js';
import type { NoteDoc, NoteVersionDoc } from './noteDoc.js';
import { LIMITS } from '../../limits.js';

const given = projectionSpec(pacientesProjection);
const patient = streamOf('clinic1', 'patient', 'p-1');
const otherClinic = streamOf('clinic2', 'patient', 'p-1');
const note = streamOf('clinic1', 'nursingNote', 'n1');
const dryWeight = (kg: number, effectiveDate: string, previous: number | null) => ({
  type: 'DryWeightPrescribed',
  data: { dryWeightKg: kg, previousDryWeightKg: previous, effectiveDate },
});
const recorded = {
  type: 'NursingNoteRecorded',
  data: {
    noteId: 'n1',
    patientId: 'p-1',
    authorId: 'nurse-1',
    version: 1,
    noteType: 'pre',
    text: 'Llega estable',
    occurredAt: '2025-03-03T07:50:00.000Z',
  },
};
const amended = {
  type: 'NursingNoteAmended',
  data: { ...recorded.data, text: 'Llega estable, edema leve', amendedBy: 'nurse-2', version: 2, reason: 'omitted finding' },
};

describe('pacientes projection', () => {
  it('registers a patient, then follows its status and its dry weight in force', async () => {
    const changed = {
      type: 'PatientStatusChanged',
      data: { status: 'hospitalized', previousStatus: 'active', reason: 'neumonía', effectiveDate: '2025-03-05' },
    };
    await given(patient(registered(), dryWeight(61, '2025-03-01', 62.5), changed)).then<PatientDoc>(PATIENTS, 'p-1', (doc) => {
      assert.equal(doc.familyNames, 'Quispe Huamán');
      assert.equal(doc.status, 'hospitalized');
      assert.equal(doc.dryWeightKg, 61);
      assert.deepEqual(
        doc.dryWeightHistory.map((w) => w.dryWeightKg),
        [62.5, 61],
      );
      assert.equal(doc.revision, 2);
    });
  });

  it('corrects demographics and keeps the later dry weight in force when an earlier one is back-dated', async () => {
    const corrected = {
      type: 'PatientDataCorrected',
      data: { changes: { givenNames: 'María Josefa' }, previous: { givenNames: 'María José' } },
    };
    const outcome = given(patient(registered(), corrected, dryWeight(61, '2025-03-01', 62.5), dryWeight(60, '2025-02-01', 61)));
    await outcome.then<PatientDoc>(PATIENTS, 'p-1', (doc) => {
      assert.equal(doc.givenNames, 'María Josefa');
      assert.match(doc.searchText, /josefa/);
      assert.equal(doc.dryWeightKg, 61);
    });
    await outcome.thenFind<PatientDoc>(PATIENTS, { searchText: { $regex: /josefa/ } }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['p-1'],
      ),
    );
  });

  it('spills a list past its cap into patientEntries, every entry reachable by its place', async () => {
    const cap = LIMITS.patientRecord.vascularAccesses;
    const accesses = Array.from({ length: cap + 2 }, (_, i) => accessCreated(`a${i}`));
    const outcome = given(patient(registered(), ...accesses));
    await outcome.then<PatientDoc>(PATIENTS, 'p-1', (doc) => {
      assert.equal(doc.entryCounts.vascularAccesses, cap + 2);
      assert.equal(doc.vascularAccesses.length, cap);
    });
    await outcome.thenFind(PATIENT_ENTRIES, { patientId: 'p-1', list: 'vascularAccesses' }, (docs) => assert.equal(docs.length, cap + 2), {
      sort: { ordinal: 1 },
    });
  });

  it('keeps a nursing note current and stores both versions once it is amended', async () => {
    const outcome = given(patient(registered()), note(recorded, amended));
    await outcome.then<NoteDoc>(NURSING_NOTES, 'n1', (doc) => {
      assert.equal(doc.text, 'Llega estable, edema leve');
      assert.equal(doc.version, 2);
      assert.equal(doc.amended, true);
    });
    await outcome.thenFind<NoteVersionDoc>(
      NOTE_VERSIONS,
      { noteId: 'n1' },
      (docs) =>
        assert.deepEqual(
          docs.map((d) => [d.version, d.text]),
          [
            [1, 'Llega estable'],
            [2, 'Llega estable, edema leve'],
          ],
        ),
      { sort: { version: 1 } },
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = patient(registered(), dryWeight(61, '2025-03-01', 62.5));
    const twice = given(events, events[1]!);
    await twice.then<PatientDoc>(PATIENTS, 'p-1', (doc) =>
      assert.deepEqual(
        doc.dryWeightHistory.map((w) => w.dryWeightKg),
        [62.5, 61],
      ),
    );
    await given(events, note(recorded, amended)).thenIdempotent();
  });

  it('keeps each clinic in its own scope', async () => {
    const outcome = given(patient(registered()), otherClinic(registered({ familyNames: 'Rojas' })));
    await outcome.then<PatientDoc>(PATIENTS, 'p-1', (doc) => assert.equal(doc.familyNames, 'Quispe Huamán'));
    await outcome.in('clinic2').then<PatientDoc>(PATIENTS, 'p-1', (doc) => assert.equal(doc.familyNames, 'Rojas'));
    await given(otherClinic(registered())).in('clinic1').thenAbsent(PATIENTS, 'p-1');
  });
});
