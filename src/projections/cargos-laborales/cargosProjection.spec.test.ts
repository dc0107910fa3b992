// Spec of the CargosLaborales projection: one document per job position, found by its compared code.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { JOB_POSITIONS, cargosProjection } from './cargosProjection.js';
import type { JobPositionDoc } from './jobPositionDoc.js';

const given = projectionSpec(cargosProjection);
const position = streamOf('t1', 'jobPosition', 'jp1');
const otherCompany = streamOf('t2', 'jobPosition', 'jp1');
const created = (name = 'Enfermera') => ({
  type: 'JobPositionCreated',
  data: {
    positionId: 'jp1',
    code: 'ENF',
    name,
    clinical: true,
    licenceRequired: true,
    licensingBody: 'CEP',
    suggestedRoles: ['nurse'],
    status: 'active',
  },
});

describe('cargos-laborales projection', () => {
  it('creates, deactivates and reactivates a position, each with its reason', async () => {
    const deactivated = { type: 'JobPositionDeactivated', data: { reason: 'merged' } };
    const reactivated = { type: 'JobPositionReactivated', data: { reason: 'split again' } };
    await given(position(created(), deactivated)).then<JobPositionDoc>(JOB_POSITIONS, 'jp1', (doc) =>
      assert.deepEqual([doc.status, doc.statusReason], ['inactive', 'merged']),
    );
    await given(position(created(), deactivated, reactivated)).then<JobPositionDoc>(JOB_POSITIONS, 'jp1', (doc) => {
      assert.deepEqual([doc.status, doc.statusReason, doc.revision], ['active', 'split again', 2]);
      assert.equal(doc.createdAt, '2025-03-03T08:01:00.000Z');
      assert.equal(doc.updatedAt, '2025-03-03T08:03:00.000Z');
    });
  });

  it('a correction changes the code it is found by and clears a field sent as null', async () => {
    const corrected = {
      type: 'JobPositionCorrected',
      data: { changes: { code: ' Enf-2 ', licensingBody: null }, previous: { code: 'ENF', licensingBody: 'CEP' } },
    };
    const outcome = given(position(created(), corrected));
    await outcome.then<JobPositionDoc>(JOB_POSITIONS, 'jp1', (doc) => {
      assert.equal(doc.codeKey, 'enf-2');
      assert.equal(doc.licensingBody, undefined);
    });
    await outcome.thenFind<JobPositionDoc>(JOB_POSITIONS, { codeKey: 'enf-2' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['jp1'],
      ),
    );
  });

  it('changes nothing when events are delivered again', async () => {
    const events = position(created(), { type: 'JobPositionDeactivated', data: { reason: 'merged' } });
    await given(events, events[0]!).then<JobPositionDoc>(JOB_POSITIONS, 'jp1', (doc) => assert.equal(doc.status, 'inactive'));
    await given(events).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(position(created()), otherCompany(created('Técnico')));
    await outcome.then<JobPositionDoc>(JOB_POSITIONS, 'jp1', (doc) => assert.equal(doc.name, 'Enfermera'));
    await outcome.in('t2').then<JobPositionDoc>(JOB_POSITIONS, 'jp1', (doc) => assert.equal(doc.name, 'Técnico'));
    await given(otherCompany(created())).in('t1').thenAbsent(JOB_POSITIONS, 'jp1');
  });
});
