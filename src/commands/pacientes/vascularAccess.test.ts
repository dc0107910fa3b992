import assert from 'node:assert/strict';
import { failedFields, scenario } from '../givenWhenThen.js';
import { patientDecider } from './patientDecider.js';
import { accessCreated, command, registered } from './patientFixtures.js';

const given = scenario(patientDecider);
const fistula = { accessId: 'v1', type: 'AVF' as const, side: 'left' as const, site: 'radiocephalic', creationDate: '2024-10-01' };

describe('patient decider: vascular accesses', () => {
  it('creates a fistula as maturing, without making it primary', () => {
    given(registered()).when(command('CreateVascularAccess', fistula)).then(accessCreated('v1'));
  });

  it('creates a catheter as active and primary when the patient has no primary access', () => {
    given(registered())
      .when(
        command('CreateVascularAccess', {
          accessId: 'c1',
          type: 'tunneledCVC',
          side: 'right',
          site: 'internal jugular',
          creationDate: '2025-03-01',
        }),
      )
      .then(
        {
          type: 'VascularAccessCreated',
          data: {
            accessId: 'c1',
            type: 'tunneledCVC',
            side: 'right',
            site: 'internal jugular',
            creationDate: '2025-03-01',
            status: 'active',
          },
        },
        { type: 'VascularAccessPrimaryDesignated', data: { accessId: 'c1', previousAccessId: null } },
      );
  });

  it('activates a matured fistula, recording first cannulation and moving the primary mark from the catheter', () => {
    const catheterPrimary = { type: 'VascularAccessPrimaryDesignated' as const, data: { accessId: 'c1', previousAccessId: null } };
    given(registered(), accessCreated('v1'), accessCreated('c1', 'active'), catheterPrimary)
      .when(command('ChangeVascularAccessStatus', { accessId: 'v1', status: 'active', date: '2025-01-10', primary: true }))
      .then(
        {
          type: 'VascularAccessStatusChanged',
          data: { accessId: 'v1', status: 'active', previousStatus: 'maturing', date: '2025-01-10', firstCannulationDate: '2025-01-10' },
        },
        { type: 'VascularAccessPrimaryDesignated', data: { accessId: 'v1', previousAccessId: 'c1' } },
      );
  });

  it('keeps the existing primary when a second access is activated without asking', () => {
    const primary = { type: 'VascularAccessPrimaryDesignated' as const, data: { accessId: 'c1', previousAccessId: null } };
    const events = given(registered(), accessCreated('v1'), accessCreated('c1', 'active'), primary)
      .when(command('ChangeVascularAccessStatus', { accessId: 'v1', status: 'active', date: '2025-01-10' }))
      .events();
    assert.deepEqual(
      events.map((e) => e.type),
      ['VascularAccessStatusChanged'],
    );
  });

  it('frees the primary mark when the primary access fails, so the next activation takes it', () => {
    const primary = { type: 'VascularAccessPrimaryDesignated' as const, data: { accessId: 'v1', previousAccessId: null } };
    const failed = {
      type: 'VascularAccessStatusChanged' as const,
      data: { accessId: 'v1', status: 'failed' as const, previousStatus: 'active' as const, date: '2025-02-01', reason: 'thrombosis' },
    };
    const events = given(registered(), accessCreated('v1', 'active'), primary, failed, accessCreated('v2'))
      .when(command('ChangeVascularAccessStatus', { accessId: 'v2', status: 'active', date: '2025-02-10' }))
      .events();
    assert.deepEqual(
      events.map((e) => e.type),
      ['VascularAccessStatusChanged', 'VascularAccessPrimaryDesignated'],
    );
  });

  it('requires a reason to fail or remove an access, and refuses leaving the removed state', () => {
    given(registered(), accessCreated('v1', 'active'))
      .when(command('ChangeVascularAccessStatus', { accessId: 'v1', status: 'failed', date: '2025-02-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['reason']));
    const removed = {
      type: 'VascularAccessStatusChanged' as const,
      data: { accessId: 'v1', status: 'removed' as const, previousStatus: 'active' as const, date: '2025-02-01', reason: 'infection' },
    };
    given(registered(), accessCreated('v1', 'active'), removed)
      .when(command('ChangeVascularAccessStatus', { accessId: 'v1', status: 'active', date: '2025-02-02' }))
      .thenError('invalid-access-transition');
  });

  it('refuses dates before the access was created and in the future', () => {
    given(registered(), accessCreated('v1'))
      .when(command('ChangeVascularAccessStatus', { accessId: 'v1', status: 'active', date: '2024-09-01' }))
      .thenError('validation-failed', (e) => assert.ok(failedFields(e).includes('date')));
    given(registered())
      .when(command('CreateVascularAccess', { ...fistula, creationDate: '2026-01-01' }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['creationDate']));
  });

  it('designates only an active access as primary; an unknown access is not found', () => {
    given(registered(), accessCreated('v1'))
      .when(command('DesignatePrimaryAccess', { accessId: 'v1' }))
      .thenError('vascular-access-not-active');
    given(registered())
      .when(command('DesignatePrimaryAccess', { accessId: 'zz' }))
      .thenError('not-found');
  });
});
