// Given session events / when a command with stated instants / then events or a refusal (issue 21 items 1 and 3): a
// treatment charted after the fact, its times amended, a past session back-entered, and what signing carries.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { sessionDecider } from './sessionDecider.js';
import type { JudgedClinical } from './sessionEvents.js';
import {
  active,
  amendPolicy,
  cmd,
  dryWeight,
  equipment,
  limits,
  nurse,
  plus,
  prescription,
  reading,
  ready,
  signed,
  slot,
  started,
  T0,
  treated,
} from './sessionTestEvents.js';

const given = scenario(sessionDecider);
const NOW = plus(600);
const fields =
  (...expected: string[]) =>
  (e: unknown) =>
    assert.deepEqual(failedFields(e as never), expected);

describe('treatment times', () => {
  it('given a ready session, when started at a stated instant, then the start is that instant, never a future one', () => {
    const access = { accessId: 'a1', type: 'AVF', side: 'left', site: 'radiocephalic', needles: null };
    const start = (startedAt: string) =>
      cmd('StartSession', { ...equipment, prescription, dryWeight, patient: active, warnings: [], startedAt, vascularAccess: access }, NOW);
    given(...ready)
      .when(start(T0))
      .then({
        type: 'SessionStarted',
        data: { ...equipment, startedAt: T0, prescription, dryWeight, warnings: [], vascularAccess: access },
      });
    given(...ready)
      .when(start(plus(620)))
      .thenError('validation-failed', fields('startedAt'));
  });

  it('given a stated start and readings, when ended at a stated instant, then the effective time runs between them', () => {
    const end = (endedAt: string) => cmd('EndSession', { endedAt }, NOW);
    given(...ready, started, reading(60))
      .when(end(plus(240)))
      .then({ type: 'SessionEnded', data: { endedAt: plus(240), effectiveMinutes: 240 } });
    given(...ready, started, reading(60))
      .when(end(plus(30)))
      .thenError('validation-failed', fields('endedAt'));
    given(...ready, started)
      .when(end(plus(-10)))
      .thenError('validation-failed', fields('endedAt'));
    given(...ready, started)
      .when(end(plus(620)))
      .thenError('validation-failed', fields('endedAt'));
    const cut = cmd('InterruptSession', { reasonCode: 'access-problem', interruptedAt: plus(90) }, NOW);
    // 240 prescribed minutes, 90 given: 150 lost (issue 21 item 8).
    const lost = { effectiveMinutes: 90, lostMinutes: 150 };
    given(...ready, started, reading(60))
      .when(cut)
      .then({ type: 'SessionInterrupted', data: { interruptedAt: plus(90), reasonCode: 'access-problem', ...lost } });
  });

  it('given a signed session, when its times are amended, then the treatment time follows and readings stay inside', () => {
    const judged: JudgedClinical = { derived: { spKtV: 1.3 }, flags: [], policyRevision: 4, judgedAt: NOW };
    const amend = (changes: Record<string, unknown>) =>
      cmd(
        'AmendSession',
        { block: 'times', changes, reason: 'Start clicked late', policy: amendPolicy, limits: limits(), by: nurse, judged },
        NOW,
      );
    given(...treated, signed)
      .when(amend({ startedAt: plus(-30) }))
      .then({
        type: 'SessionAmended',
        data: {
          block: 'times',
          changes: { startedAt: plus(-30) },
          previous: { startedAt: T0 },
          reason: 'Start clicked late',
          policyRevision: 4,
          amendedBy: nurse,
          effectiveMinutes: 270,
          judged,
        },
      });
    given(...treated, signed)
      .when(amend({ startedAt: plus(61) }))
      .thenError('validation-failed', fields('changes/startedAt'));
    given(...treated, signed)
      .when(amend({ endedAt: plus(59) }))
      .thenError('validation-failed', fields('changes/endedAt'));
  });

  it('given a session, when signed with the values judged, then the signature carries them', () => {
    const judged: JudgedClinical = { derived: { eKtV: 1.09 }, flags: [], policyRevision: 2, judgedAt: plus(250) };
    given(...treated)
      .when(cmd('SignSession', { signer: nurse, judged }, plus(250)))
      .then({ type: 'SessionSignedByNurse', data: { ...nurse, signedAt: plus(250), judged } });
  });

  it('given a past date, when scheduled with the reason it is late, then it is back-entered', () => {
    const schedule = (over: Record<string, unknown>) =>
      cmd('ScheduleSession', {
        ...slot,
        kind: 'extra',
        reason: 'Downtime',
        requestedBy: 'dr1',
        patient: active,
        today: '2025-03-04',
        ...over,
      } as never);
    given().when(schedule({})).thenError('validation-failed', fields('lateEntryReason'));
    given()
      .when(schedule({ lateEntryReason: ' Charted after a downtime ' }))
      .then({
        type: 'SessionScheduled',
        data: { ...slot, kind: 'extra', reason: 'Downtime', requestedBy: 'dr1', lateEntryReason: 'Charted after a downtime' },
      });
  });
});
