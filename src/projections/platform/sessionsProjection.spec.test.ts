// Spec of the platform sessions projection: one sign-in session per document, read by authenticate on each request.
import assert from 'node:assert/strict';
import { projectionSpec, streamOf } from '../runner/projectionSpec.js';
import { sessionsProjection } from './sessionsProjection.js';
import { SESSIONS, type SessionDoc } from './platformReadModels.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';

const given = projectionSpec(sessionsProjection);
const signIn = streamOf(PLATFORM_DOCS, 'session', 'sess1');
const otherUser = streamOf(PLATFORM_DOCS, 'session', 'sess2');
const dialysisSession = streamOf('t1', 'dialysisSession', 'sess3');
const C = SESSIONS.collection;
const started = (sessionId: string, userId: string) => ({
  type: 'SessionStarted',
  data: {
    sessionId,
    userId,
    email: `${userId}@clinic.pe`,
    platformAdmin: false,
    challengeId: 'c1',
    refreshTokenHash: 'h',
    startedAt: '2025-03-03T08:00:00.000Z',
    expiresAt: '2025-03-03T20:00:00.000Z',
    idleTimeoutSeconds: 1800,
  },
});

describe('platform sessions projection', () => {
  it('starts a session, selects a company, records activity and logs out', async () => {
    const history = signIn(
      started('sess1', 'u1'),
      { type: 'CompanySelected', data: { companyId: 't1' } },
      { type: 'SessionActivityRecorded', data: { at: '2025-03-03T09:00:00.000Z' } },
      { type: 'LoggedOut', data: { at: '2025-03-03T10:00:00.000Z' } },
    );
    await given(history).then<SessionDoc>(C, 'sess1', (doc) => {
      assert.deepEqual(
        [doc.companyId, doc.lastActivityAt, doc.endedReason, doc.endedAt],
        ['t1', '2025-03-03T09:00:00.000Z', 'logout', '2025-03-03T10:00:00.000Z'],
      );
    });
  });

  it('a revocation states its reason; a refresh moves the activity', async () => {
    const refreshed = { type: 'SessionRefreshed', data: { refreshTokenHash: 'h2', at: '2025-03-03T08:30:00.000Z' } };
    const revoked = { type: 'SessionRevoked', data: { reason: 'password-changed', at: '2025-03-03T08:45:00.000Z' } };
    await given(signIn(started('sess1', 'u1'), refreshed, revoked)).then<SessionDoc>(C, 'sess1', (doc) => {
      assert.deepEqual([doc.lastActivityAt, doc.endedReason], ['2025-03-03T08:30:00.000Z', 'password-changed']);
    });
  });

  it('changes nothing when events are delivered again', async () => {
    const events = signIn(started('sess1', 'u1'), { type: 'SessionExpired', data: { reason: 'idle', at: '2025-03-03T09:00:00.000Z' } });
    await given(events, events[0]!).then<SessionDoc>(C, 'sess1', (doc) => assert.equal(doc.endedReason, 'idle'));
    await given(events, otherUser(started('sess2', 'u2'))).thenIdempotent();
  });

  it("keeps sessions in the platform scope, a user's own found by user; a dialysis session's start is not a sign-in", async () => {
    const outcome = given(signIn(started('sess1', 'u1')), otherUser(started('sess2', 'u2')), dialysisSession(started('sess3', 'u3')));
    await outcome.thenFind<SessionDoc>(C, { userId: 'u1' }, (docs) =>
      assert.deepEqual(
        docs.map((d) => d.id),
        ['sess1'],
      ),
    );
    await outcome.thenAbsent(C, 'sess3');
    await outcome.in('t1').thenAbsent(C, 'sess3');
  });
});
