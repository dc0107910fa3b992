// Spec of the dialysis sessions projection: one document per session, folded from its stream and its consequences.
import assert from 'node:assert/strict';
import { at, projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { SESSIONS, sessionsProjection } from './sessionsProjection.js';
import type { SessionDoc } from './sessionDoc.js';
import { ended, plus, post, reading, ready, signed, started, validated } from '../../commands/dialisis/session/sessionTestEvents.js';

const given = projectionSpec(sessionsProjection);
const session = streamOf('t1', 'dialysisSession', 's1');
const consequences = streamOf('t1', 'sessionConsequences', 's1');
const otherCompany = streamOf('t2', 'dialysisSession', 's1');
const signIn = streamOf('t1', 'session', 's1');
const refused = {
  type: 'ConsequenceRefused',
  data: { kind: 'dialyzer-use', itemId: 'd1', causeEventId: 'e7', code: 'dialyzer-expired', message: 'expired' },
};
const applied = { type: 'ConsequenceApplied', data: { kind: 'machine-use', itemId: 'm1', causeEventId: 'e7' } };
const amended = {
  type: 'SessionAmended',
  data: {
    block: 'post',
    changes: { pulse: 70 },
    previous: { pulse: 74 },
    reason: 'transcription',
    policyRevision: 4,
    returnsToValidation: true,
  },
};

describe('dialisis sessions projection', () => {
  it('follows a session from scheduled to signed, its readings in clinical time whatever the order they came in', async () => {
    const treated = session(...ready, started, reading(30), reading(10), ended(), { type: 'PostDialysisRecorded', data: post }, signed);
    await given(treated).then<SessionDoc>(SESSIONS, 's1', (doc) => {
      assert.equal(doc.status, 'signed');
      assert.deepEqual(
        doc.readings.map((r) => r.at),
        [plus(10), plus(30)],
      );
      assert.equal(doc.counts.readings, 2);
      assert.equal(doc.effectiveMinutes, 240);
      assert.equal(doc.equipment?.machineId, 'm1');
      assert.equal(doc.revision, 9);
    });
  });

  it('records the consequences of its end beside it, a refusal counted as an alert, the ETag left to the session stream', async () => {
    const outcome = given(session(...ready, started, ended()), consequences(applied, refused));
    await outcome.then<SessionDoc>(SESSIONS, 's1', (doc) => {
      assert.deepEqual(
        doc.consequences.map((c) => [c.kind, c.outcome, c.code]),
        [
          ['machine-use', 'applied', null],
          ['dialyzer-use', 'refused', 'dialyzer-expired'],
        ],
      );
      assert.equal(doc.counts.refusedConsequences, 1);
      assert.equal(doc.revision, 5);
    });
    await given(consequences(applied)).thenAbsent(SESSIONS, 's1');
  });

  it('an amendment of a validated record merges its block and sends it back to awaiting validation', async () => {
    const history = session(
      ...ready,
      started,
      ended(),
      { type: 'PostDialysisRecorded', data: post },
      signed,
      validated,
      at(plus(400), amended, { actor: 'dr1' }),
    );
    await given(history).then<SessionDoc>(SESSIONS, 's1', (doc) => {
      assert.equal(doc.post?.pulse, 70);
      assert.equal(doc.post?.scaleWeightKg, post.scaleWeightKg);
      assert.equal(doc.status, 'signed');
      assert.equal(doc.physicianValidation, null);
      assert.equal(doc.earlierValidations.length, 1);
      assert.deepEqual(
        doc.amendments.map((a) => [a.block, a.at, a.by]),
        [['post', plus(400), 'dr1']],
      );
    });
  });

  it('changes nothing when events are delivered again', async () => {
    const events = session(...ready, started, reading(10));
    await given(events, events[5]!).then<SessionDoc>(SESSIONS, 's1', (doc) => assert.equal(doc.counts.readings, 1));
    await given(events, consequences(refused)).thenIdempotent();
  });

  it('keeps each company in its own scope and ignores sign-in sessions', async () => {
    const outcome = given(session(...ready), otherCompany(...ready, started), signIn(started));
    await outcome.then<SessionDoc>(SESSIONS, 's1', (doc) => assert.equal(doc.status, 'checked-in'));
    await outcome.in('t2').then<SessionDoc>(SESSIONS, 's1', (doc) => assert.equal(doc.status, 'in-progress'));
    await given(otherCompany(...ready))
      .in('t1')
      .thenAbsent(SESSIONS, 's1');
  });
});
