// Given a machine / when a session claims it / then it starts or every isolation reason (issue 21 item 11): a patient's
// infections are a set, a machine serves a set of isolation categories, and which infections need a machine of their
// own is company policy (default: HBV only, shared/domain.md "HBsAg+ -> isolation machine only").
import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import type { DomainError } from '../decider.js';
import { DEFAULT_POLICY } from '../empresas/shared/policySettings.js';
import { machineDecider } from './machineDecider.js';
import type { MachineCommand, MachineEvent, MachineFields, StartPolicy } from './machineEvents.js';
import { machineRegistered, startPolicy } from './machineTestEvents.js';

const given = scenario(machineDecider);
const at = '2025-03-01T10:00:00.000Z';
const registered = (isolation: MachineFields['isolation']): MachineEvent => machineRegistered({ isolation });
const byDefault = startPolicy({ dedicatedMachineFor: DEFAULT_POLICY.isolation.dedicatedMachineFor });
const hcvToo: StartPolicy = { ...byDefault, dedicatedMachineFor: ['HBV', 'HCV'] };
const start = (isolation: string[], maintenance = byDefault): MachineCommand => ({
  type: 'StartMachineUse',
  data: { sessionId: 'ses1', patientId: 'p1', patient: { exists: true, active: true, isolation }, maintenance },
  at,
  actor: 'u1',
  aggregateId: 'm1',
  tenantId: 't1',
});
const started = (isolation: string[]): MachineEvent => ({
  type: 'MachineUseStarted',
  data: { sessionId: 'ses1', patientId: 'p1', startedAt: at, warnings: [], policyRevision: 3, patientIsolation: isolation },
});
const reasonsOf = (e: DomainError): string[] => (e.details?.reasons as { code: string }[]).map((r) => `${r.code}`);
const messagesOf = (e: DomainError): string[] => (e.details?.reasons as { message: string }[]).map((r) => r.message);

describe('isolation as sets', () => {
  it('dialyses a patient co-infected with HBV and HCV on a machine that serves both', () => {
    given(registered(['HBV', 'HCV']))
      .when(start(['HBV', 'HCV']))
      .then(started(['HBV', 'HCV']));
    given(registered(['HCV', 'HBV']))
      .when(start(['HBV', 'HCV'], hcvToo))
      .then(started(['HBV', 'HCV']));
  });

  it('by default only HBV needs its own machine: the co-infected patient may use an HBV machine', () => {
    assert.deepEqual(DEFAULT_POLICY.isolation.dedicatedMachineFor, ['HBV']);
    given(registered('HBV'))
      .when(start(['HBV', 'HCV']))
      .then(started(['HBV', 'HCV']));
    given(registered('none'))
      .when(start(['HCV']))
      .then(started(['HCV']));
  });

  it('when the company dedicates machines to HCV too, an HCV patient needs a machine that serves HCV', () => {
    given(registered(['HBV']))
      .when(start(['HBV', 'HCV'], hcvToo))
      .thenError('may-not-start', (e) => {
        assert.deepEqual(reasonsOf(e), ['isolation-patient']);
        assert.match(messagesOf(e)[0]!, /HCV/);
      });
    given(registered('none'))
      .when(start(['HCV'], hcvToo))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['isolation-patient']));
  });

  it('a machine that serves an infection never takes a patient without it', () => {
    given(registered(['HBV', 'HCV']))
      .when(start(['HBV']))
      .thenError('may-not-start', (e) => {
        assert.deepEqual(reasonsOf(e), ['isolation-machine']);
        assert.match(messagesOf(e)[0]!, /HCV/);
      });
    given(registered(['HBV']))
      .when(start([]))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['isolation-machine']));
    given(registered('none'))
      .when(start(['HBV']))
      .thenError('may-not-start', (e) => assert.deepEqual(reasonsOf(e), ['isolation-patient']));
  });
});
