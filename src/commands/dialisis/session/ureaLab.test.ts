// Given a session / when the lab's urea is recorded as the lab reports it / then the block keeps it and its BUN mg/dL.
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import { bunMgDlOf } from '../shared/ureaLab.js';
import { sessionDecider } from './sessionDecider.js';
import {
  amendPolicy,
  checkedIn,
  cmd,
  ended,
  limits,
  nurse,
  plus,
  post,
  pre,
  reading,
  ready,
  scheduled,
  signed,
  started,
} from './sessionTestEvents.js';
import type { SessionEvent } from './sessionEvents.js';

const given = scenario(sessionDecider);
const afterEnd = [...ready, started, reading(60), ended()] as SessionEvent[];

describe('urea as labs report it', () => {
  it('converts: urea mg/dL / 2.14, mmol/L (BUN or urea) x 2.8, BUN mg/dL as is', () => {
    // 149.8 mg/dL urea = 149.8 / 2.14 = 70 mg/dL BUN; 25 mmol/L urea = 25 x 2.8 = 70 mg/dL BUN; 25 mmol/L BUN alike.
    assert.equal(bunMgDlOf({ value: 149.8, analyte: 'urea', unit: 'mg/dL' }), 70);
    assert.equal(bunMgDlOf({ value: 25, analyte: 'urea', unit: 'mmol/L' }), 70);
    assert.equal(bunMgDlOf({ value: 25, analyte: 'BUN', unit: 'mmol/L' }), 70);
    assert.equal(bunMgDlOf({ value: 70, analyte: 'BUN', unit: 'mg/dL' }), 70);
  });

  it('given a checked-in session, when the pre block states urea 25 mmol/L, then it keeps it and records BUN 70 mg/dL', () => {
    const preUrea = { value: 25, analyte: 'urea', unit: 'mmol/L' } as const;
    const { preBunMgDl: _n, ...withoutNumber } = pre;
    given(scheduled, checkedIn)
      .when(cmd('RecordPreDialysis', { ...withoutNumber, preUrea }))
      .then({ type: 'PreDialysisRecorded', data: { ...withoutNumber, preUrea, preBunMgDl: 70 } });
    // A plain number is BUN mg/dL, as before.
    given(scheduled, checkedIn).when(cmd('RecordPreDialysis', pre)).then({ type: 'PreDialysisRecorded', data: pre });
    // Both, disagreeing: refused naming the number.
    given(scheduled, checkedIn)
      .when(cmd('RecordPreDialysis', { ...pre, preBunMgDl: 60, preUrea }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['preBunMgDl']));
    // 200 mmol/L is 560 mg/dL BUN: outside the hard range.
    given(scheduled, checkedIn)
      .when(cmd('RecordPreDialysis', { ...withoutNumber, preUrea: { ...preUrea, value: 200 } }))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['preUrea/value']));
  });

  it('records how and when the post sample was drawn: not before the start, not in the future', () => {
    const postUrea = { value: 8.9, analyte: 'BUN', unit: 'mmol/L' } as const;
    const postSample = { method: 'slow-flow', drawnAt: plus(241) } as const;
    const { postBunMgDl: _n, ...withoutNumber } = post;
    given(...afterEnd)
      .when(cmd('RecordPostDialysis', { ...withoutNumber, postUrea, postSample }, plus(245)))
      .then({ type: 'PostDialysisRecorded', data: { ...withoutNumber, postUrea, postSample, postBunMgDl: 24.92 } });
    given(...afterEnd)
      .when(cmd('RecordPostDialysis', { ...post, postSample: { method: 'stop-pump', drawnAt: plus(-5) } }, plus(245)))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['postSample/drawnAt']));
    given(...afterEnd)
      .when(cmd('RecordPostDialysis', { ...post, postSample: { method: 'stop-pump', drawnAt: plus(300) } }, plus(245)))
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['postSample/drawnAt']));
  });

  it('an amendment restating one side moves the other with it', () => {
    const postUrea = { value: 9, analyte: 'urea', unit: 'mmol/L' } as const;
    const treatedWithLab = [
      ...afterEnd,
      { type: 'PostDialysisRecorded', data: { ...post, postUrea, postBunMgDl: 25.2 } },
    ] as SessionEvent[];
    const amend = (changes: Record<string, unknown>) =>
      cmd('AmendSession', { block: 'post', changes, reason: 'lab corrected', policy: amendPolicy, limits: limits(), by: nurse }, plus(300));
    given(...treatedWithLab, signed)
      .when(amend({ postUrea: { ...postUrea, value: 10 } }))
      .then({
        type: 'SessionAmended',
        data: {
          block: 'post',
          changes: { postUrea: { ...postUrea, value: 10 }, postBunMgDl: 28 },
          previous: { postUrea, postBunMgDl: 25.2 },
          reason: 'lab corrected',
          policyRevision: 4,
          amendedBy: nurse,
        },
      });
    given(...treatedWithLab, signed)
      .when(amend({ postBunMgDl: 30 }))
      .then({
        type: 'SessionAmended',
        data: {
          block: 'post',
          changes: { postBunMgDl: 30, postUrea: { value: 30, analyte: 'BUN', unit: 'mg/dL' } },
          previous: { postBunMgDl: 25.2, postUrea },
          reason: 'lab corrected',
          policyRevision: 4,
          amendedBy: nurse,
        },
      });
  });
});
