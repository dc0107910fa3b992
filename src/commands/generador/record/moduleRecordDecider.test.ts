// Given record events / when a command (with the module as it is now, and the facts read for it) / then events or a refusal.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { moduleRecordDecider, type RecordFacts } from './moduleRecordDecider.js';
import type { ModuleRecordCommand, ModuleRecordEvent } from './moduleRecordEvents.js';
import type { ModuleState } from '../shared/moduleFold.js';
import { onMajor2, published, v1, withReopen } from './moduleRecordFixtures.js';

const found: RecordFacts = { patientExists: true, references: { nurse: true } };
const given = (policy: ModuleState = published, facts: RecordFacts = found) => scenario(moduleRecordDecider(policy, facts));

const at = '2026-03-01T10:00:00.000Z';
const cmd = <T extends ModuleRecordCommand['type']>(
  type: T,
  data: Extract<ModuleRecordCommand, { type: T }>['data'],
  actor = 'u1',
): ModuleRecordCommand => ({ type, data, at, actor, aggregateId: 'r1', tenantId: 't1' }) as ModuleRecordCommand;
const create = (values: Record<string, unknown>, patientId: string | null = 'p1', module = 'hepb') =>
  cmd('CreateModuleRecord', { recordId: 'r1', module, patientId, values: values as never });
const amend = (values: Record<string, unknown>) => cmd('AmendModuleRecord', { values: values as never });
const transition = (name: string, signed = false, actor = 'u1') => cmd('TransitionModuleRecord', { transition: name, signed }, actor);

const written = { dose: 1, date: '2026-02-01', lot: 'L1', schedule: 'standard' };
const created: ModuleRecordEvent = {
  type: 'ModuleRecordCreated',
  data: { recordId: 'r1', module: 'hepb', major: 1, minor: 0, patientId: 'p1', values: written, state: 'draft' },
};
const archived: ModuleRecordEvent = { type: 'ModuleRecordArchived', data: { module: 'hepb', patientId: 'p1' } };
const transitioned = (name: string, from: string, to: string, signed = false): ModuleRecordEvent => ({
  type: 'ModuleRecordTransitioned',
  data: { module: 'hepb', transition: name, from, to, signed, patientId: 'p1' },
});

describe('module record decider', () => {
  describe('the module', () => {
    it('is absent for a draft, unknown or other module, and refuses writes once retired', () => {
      given({ ...published, status: 'draft' })()
        .when(create(written))
        .thenError('not-found', (e) => assert.equal(e.status, 404));
      given({ ...published, exists: false })()
        .when(create(written))
        .thenError('not-found');
      given()()
        .when(create(written, 'p1', 'other'))
        .thenError('not-found');
      given({ ...published, status: 'retired' })()
        .when(create(written))
        .thenError('module-retired', (e) => assert.equal(e.status, 409));
      given(
        { ...published, status: 'retired' },
        found,
      )(created)
        .when(amend({ lot: 'L2' }))
        .thenError('module-retired');
    });

    it("answers not-found for a record of another module (or none) on this module's writes", () => {
      given({ ...published, code: 'other' })(created)
        .when(amend({ lot: 'L2' }))
        .thenError('not-found');
      given()()
        .when(amend({ lot: 'L2' }))
        .thenError('not-found');
      given()().when(cmd('ArchiveModuleRecord', {})).thenError('not-found');
    });
  });

  describe('creating', () => {
    it('fills defaults, starts in the initial state, on the current major, naming module and patient', () => {
      given()()
        .when(create({ dose: 1, date: '2026-02-01', lot: 'L1' }))
        .then(created);
    });

    it('has no state when the module has none, and no patient when it is not patient-linked', () => {
      const plain = { ...published, definition: { ...v1, patientLinked: false, states: undefined } };
      const events = given(plain, { references: {} })()
        .when(create({ dose: 1, date: '2026-02-01' }, null))
        .events();
      assert.deepEqual(events[0]!.data, {
        recordId: 'r1',
        module: 'hepb',
        major: 1,
        minor: 0,
        patientId: null,
        values: { dose: 1, date: '2026-02-01', schedule: 'standard' },
        state: null,
      });
    });

    it('needs a patient of the company iff the module is patient-linked', () => {
      given()()
        .when(create(written, null))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['patientId']));
      given(published, { ...found, patientExists: false })()
        .when(create(written))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['patientId']));
      const plain = { ...published, definition: { ...v1, patientLinked: false } };
      given(plain)()
        .when(create(written))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['patientId']));
    });

    it('names every missing required field, unknown field, value of the wrong type and absent reference', () => {
      given(published, { patientExists: true, references: { nurse: false } })()
        .when(create({ date: 7, colour: 'red', lot: ['x'], nurse: 's9' }))
        .thenError('validation-failed', (e) =>
          assert.deepEqual(failedFields(e).sort(), ['values/colour', 'values/date', 'values/dose', 'values/lot', 'values/nurse']),
        );
      given(published, { patientExists: true })()
        .when(create({ ...written, dose: 1.5, nurse: 's1' }))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e).sort(), ['values/dose', 'values/nurse']));
    });

    it('refuses a second creation of the same record', () => {
      given()(created).when(create(written)).thenError('already-exists');
    });
  });

  describe('amending', () => {
    it('carries only what changed and what was cleared; nothing changed is no event', () => {
      given()(created)
        .when(amend({ dose: 2, lot: null, date: '2026-02-01' }))
        .then({
          type: 'ModuleRecordAmended',
          data: { module: 'hepb', major: 1, minor: 0, values: { dose: 2 }, cleared: ['lot'], rewritten: false, patientId: 'p1' },
        });
      given()(created)
        .when(amend({ dose: 1, date: '2026-02-01' }))
        .then();
    });

    it('refuses clearing a required field, an unknown field, a wrong type and an absent reference', () => {
      given(published, { references: { nurse: false } })(created)
        .when(amend({ dose: null, colour: 'red', date: false, nurse: 's9' }))
        .thenError('validation-failed', (e) =>
          assert.deepEqual(failedFields(e).sort(), ['values/colour', 'values/date', 'values/dose', 'values/nurse']),
        );
    });

    it('moves a record of an older major onto the current one, carrying the whole mapped record', () => {
      given(onMajor2)(created)
        .when(amend({ dose: 2 }))
        .then({
          type: 'ModuleRecordAmended',
          data: {
            module: 'hepb',
            major: 2,
            minor: 0,
            values: { dose: 2, date: '2026-02-01', schedule: 'standard', batch: 'L1', site: 'deltoid' },
            cleared: [],
            rewritten: true,
            patientId: 'p1',
          },
        });
    });

    it('needs what the mapping cannot give a required field of the current major, and leaves out fields it no longer has', () => {
      const noDefault = { ...onMajor2, majors: [onMajor2.majors[0]!, { ...onMajor2.majors[1]!, upcast: [] }] };
      given(noDefault)(created)
        .when(amend({ dose: 2 }))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['values/site']));
      given(noDefault)(created)
        .when(amend({ dose: 2, site: 'thigh' }))
        .then({
          type: 'ModuleRecordAmended',
          data: {
            module: 'hepb',
            major: 2,
            minor: 0,
            values: { dose: 2, date: '2026-02-01', schedule: 'standard', site: 'thigh' },
            cleared: [],
            rewritten: true,
            patientId: 'p1',
          },
        });
    });

    it('a record read through the mapping amends on it: a field of the old major is unknown', () => {
      given(onMajor2)(created)
        .when(amend({ lot: 'L2' }))
        .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['values/lot']));
    });

    it('refuses an archived record', () => {
      given()(created, archived)
        .when(amend({ dose: 2 }))
        .thenError('record-archived', (e) => assert.equal(e.status, 409));
    });

    it('reopens a signed record sent back to where a signature is awaited: it may then be amended; any other move keeps it signed', () => {
      const signedOnce = transitioned('sign', 'draft', 'signed', true);
      const reopened: ModuleRecordEvent = {
        type: 'ModuleRecordTransitioned',
        data: { module: 'hepb', transition: 'reopen', from: 'signed', to: 'draft', signed: false, reopened: true, patientId: 'p1' },
      };
      given(withReopen)(created, signedOnce).when(transition('reopen')).then(reopened);
      given(withReopen)(created, signedOnce, reopened)
        .when(amend({ dose: 2 }))
        .then({
          type: 'ModuleRecordAmended',
          data: { module: 'hepb', major: 1, minor: 0, values: { dose: 2 }, cleared: [], rewritten: false, patientId: 'p1' },
        });
      given(withReopen)(created, signedOnce)
        .when(transition('file'))
        .then(transitioned('file', 'signed', 'filed'));
      given(withReopen)(created, signedOnce, transitioned('file', 'signed', 'filed'))
        .when(amend({ dose: 2 }))
        .thenError('record-signed', (e) => assert.equal(e.status, 409));
    });

    it('refuses a signed record, like a signed session: the signature covers the values as signed', () => {
      given()(created, transitioned('sign', 'draft', 'signed', true))
        .when(amend({ dose: 2 }))
        .thenError('record-signed', (e) => assert.equal(e.status, 409));
    });
  });

  describe('transitions', () => {
    it('moves the record along a transition of its current state', () => {
      given()(created)
        .when(transition('void'))
        .then(transitioned('void', 'draft', 'void'));
    });

    it('signs only with a signature, by a person', () => {
      given()(created)
        .when(transition('sign', true))
        .then(transitioned('sign', 'draft', 'signed', true));
      given()(created)
        .when(transition('sign', false))
        .thenError('signature-required', (e) => assert.equal(e.status, 403));
      given()(created)
        .when(transition('sign', true, 'client:c1'))
        .thenError('people-only', (e) => assert.equal(e.status, 403));
    });

    it('answers not-found for a transition the module does not have', () => {
      given()(created)
        .when(transition('approve'))
        .thenError('not-found', (e) => assert.deepEqual(e.details, { transition: 'approve', transitions: ['sign', 'void'] }));
    });

    it('refuses a transition from another state, naming the state and what it allows', () => {
      given()(created, transitioned('void', 'draft', 'void'))
        .when(transition('sign', true))
        .thenError('transition-not-allowed', (e) => assert.deepEqual(e.details, { state: 'void', transitions: [] }));
    });

    it('refuses an archived record', () => {
      given()(created, archived).when(transition('void')).thenError('record-archived');
    });
  });

  describe('archiving', () => {
    it('archives once', () => {
      given()(created).when(cmd('ArchiveModuleRecord', {})).then(archived);
      given()(created, archived).when(cmd('ArchiveModuleRecord', {})).thenError('record-archived');
    });
  });

  describe('evolve', () => {
    it('folds the record as written: rewritten onto a new major, cleared, moved, signed, archived', () => {
      const decider = moduleRecordDecider(onMajor2);
      const history: ModuleRecordEvent[] = [
        created,
        {
          type: 'ModuleRecordAmended',
          data: {
            module: 'hepb',
            major: 2,
            minor: 0,
            values: { dose: 2, date: '2026-02-01', site: 'arm' },
            cleared: [],
            rewritten: true,
            patientId: 'p1',
          },
        },
        {
          type: 'ModuleRecordAmended',
          data: { module: 'hepb', major: 2, minor: 0, values: { dose: 3 }, cleared: ['site'], rewritten: false, patientId: 'p1' },
        },
        transitioned('sign', 'draft', 'signed', true),
        archived,
      ];
      const state = history.reduce((s, e) => decider.evolve(s, e), decider.initialState);
      assert.deepEqual(state, {
        exists: true,
        module: 'hepb',
        major: 2,
        values: { dose: 3, date: '2026-02-01' },
        patientId: 'p1',
        state: 'signed',
        archived: true,
        signed: true,
      });
    });
  });
});
