// Spec of the Colaboradores projection: one document per staff record, its licence expiry kept as a top-level key.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { STAFF, colaboradoresProjection } from './colaboradoresProjection.js';
import type { StaffDoc } from './staffDoc.js';

const given = projectionSpec(colaboradoresProjection);
const staff = streamOf('t1', 'staff', 's1');
const otherCompany = streamOf('t2', 'staff', 's1');
const personal = {
  document: { type: 'DNI', number: '41234567' },
  givenNames: 'Rosa',
  familyNames: 'Mamani',
  hireDate: '2024-01-15',
  contractType: 'planilla',
};
const hired = (familyNames = 'Mamani') => ({
  type: 'StaffHired',
  data: { staffId: 's1', ...personal, familyNames, positionId: 'p1', status: 'active', serology: [], hbvVaccination: [] },
});
const licence = { body: 'CEP', number: '12345', expiresOn: '2026-01-31' };

describe('colaboradores projection', () => {
  it('hires, licenses, links, terminates and rehires a staff member', async () => {
    const history = staff(
      hired(),
      { type: 'StaffLicenseRegistered', data: licence },
      { type: 'StaffLinkedToUser', data: { userId: 'u9', previousUserId: null } },
      { type: 'StaffTerminated', data: { terminationDate: '2025-02-28', reason: 'resigned' } },
      {
        type: 'StaffRehired',
        data: {
          hireDate: '2025-06-01',
          previousHireDate: '2024-01-15',
          previousTerminationDate: '2025-02-28',
          positionId: 'p2',
          reason: 'back',
        },
      },
    );
    await given(history).then<StaffDoc>(STAFF, 's1', (doc) => {
      assert.deepEqual([doc.status, doc.hireDate, doc.positionId, doc.userId], ['active', '2025-06-01', 'p2', 'u9']);
      assert.equal(doc.terminationDate, undefined);
      assert.equal(doc.licenceExpiresOn, '2026-01-31');
      assert.equal(doc.revision, 4);
    });
  });

  it('a correction re-sorts the name; a renewed licence moves the expiry it is found by', async () => {
    const corrected = { type: 'StaffDataCorrected', data: { changes: { familyNames: 'Ávila' }, previous: { familyNames: 'Mamani' } } };
    const renewed = { type: 'StaffLicenseRenewed', data: { ...licence, expiresOn: '2028-01-31', previous: licence } };
    const outcome = given(staff(hired(), { type: 'StaffLicenseRegistered', data: licence }, corrected, renewed));
    await outcome.then<StaffDoc>(STAFF, 's1', (doc) => assert.equal(doc.sortName, 'avila rosa'));
    await outcome.thenFind<StaffDoc>(STAFF, { licenceExpiresOn: { $lte: '2026-12-31' } }, (docs) => assert.equal(docs.length, 0));
  });

  it('changes nothing when events are delivered again', async () => {
    const serology = { type: 'StaffSerologyRecorded', data: { test: 'HBsAg', result: 'negative', sampleDate: '2025-01-10' } };
    const events = staff(hired(), serology);
    await given(events, events[1]!).then<StaffDoc>(STAFF, 's1', (doc) => assert.equal(doc.serologyCount, 1));
    await given(events, staff({ type: 'StaffLicenseRegistered', data: licence })).thenIdempotent();
  });

  it('keeps each company in its own scope', async () => {
    const outcome = given(staff(hired()), otherCompany(hired('Quispe')));
    await outcome.then<StaffDoc>(STAFF, 's1', (doc) => assert.equal(doc.familyNames, 'Mamani'));
    await outcome.in('t2').then<StaffDoc>(STAFF, 's1', (doc) => assert.equal(doc.familyNames, 'Quispe'));
    await given(otherCompany(hired())).in('t1').thenAbsent(STAFF, 's1');
  });
});
