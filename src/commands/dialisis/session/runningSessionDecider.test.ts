// Given a patient's running-session claims / when a start claims or an end releases / then events or a refusal.
import assert from 'node:assert/strict';
import { scenario } from '../../givenWhenThen.js';
import type { SessionStatus } from './sessionEvents.js';
import { runningSessionDecider, type RunningSessionCommand, type RunningSessionEvent } from './runningSessionDecider.js';

const given = scenario(runningSessionDecider);
const T0 = '2025-03-03T08:00:00.000Z';
const at = (minutes: number): string => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const claim = (sessionId: string, minutes = 0, holder?: { sessionId: string; status: SessionStatus | null }): RunningSessionCommand => ({
  type: 'ClaimRunningSession',
  data: { sessionId, ...(holder ? { holder: { ...holder, graceSeconds: 120 } } : {}) },
  at: at(minutes),
  actor: 'u1',
  aggregateId: 'p1',
  tenantId: 't1',
});
const release = (sessionId: string): RunningSessionCommand => ({
  type: 'ReleaseRunningSession',
  data: { sessionId, reason: 'session-ended' },
  at: at(240),
  actor: 'u1',
  aggregateId: 'p1',
  tenantId: 't1',
});
const claimed = (sessionId: string, minutes = 0): RunningSessionEvent => ({
  type: 'RunningSessionClaimed',
  data: { sessionId, claimedAt: at(minutes) },
});
const released = (sessionId: string, reason = 'session-ended'): RunningSessionEvent => ({
  type: 'RunningSessionReleased',
  data: { sessionId, reason },
});

describe('one running session per patient', () => {
  it('claims a free patient; the same start again decides nothing', () => {
    given().when(claim('morning')).then(claimed('morning'));
    given(claimed('morning')).when(claim('morning', 1)).then();
  });

  it("refuses a second session while the first runs, naming it; the first's release frees the patient", () => {
    given(claimed('morning'))
      .when(claim('afternoon', 240, { sessionId: 'morning', status: 'in-progress' }))
      .thenError('patient-session-in-progress', (e) => assert.equal(e.details?.sessionId, 'morning'));
    given(claimed('morning'))
      .when(claim('afternoon', 240, { sessionId: 'morning', status: 'paused' }))
      .thenError('patient-session-in-progress');
    // Without facts about the holder (a race lost to it a moment ago) the claim stands.
    given(claimed('morning')).when(claim('afternoon', 240)).thenError('patient-session-in-progress');
    given(claimed('morning')).when(release('morning')).then(released('morning'));
    given(claimed('morning'), released('morning')).when(claim('afternoon', 240)).then(claimed('afternoon', 240));
  });

  it('takes over a claim whose release never came, or whose start never came once the grace has passed', () => {
    for (const status of ['ended', 'interrupted', 'signed', 'cancelled'] as const) {
      given(claimed('morning'))
        .when(claim('afternoon', 240, { sessionId: 'morning', status }))
        .then(released('morning', 'stale-claim'), claimed('afternoon', 240));
    }
    given(claimed('morning'))
      .when(claim('afternoon', 1, { sessionId: 'morning', status: 'checked-in' }))
      .thenError('patient-session-in-progress');
    given(claimed('morning'))
      .when(claim('afternoon', 3, { sessionId: 'morning', status: 'checked-in' }))
      .then(released('morning', 'stale-claim'), claimed('afternoon', 3));
  });

  it("never releases another session's claim", () => {
    given(claimed('morning')).when(release('afternoon')).then();
    given().when(release('morning')).then();
  });

  it('a session charted after the fact, stated to start before the running one began, runs beside it, one at a time', () => {
    const running = { sessionId: 'today', status: 'in-progress' as const, startedAt: at(-30), graceSeconds: 120 };
    const backEntry = (
      sessionId: string,
      startedAt: string,
      charting?: { sessionId: string; status: SessionStatus },
    ): RunningSessionCommand => ({
      type: 'ClaimRunningSession',
      data: { sessionId, startedAt, holder: running, ...(charting ? { charting: { ...charting, graceSeconds: 120 } } : {}) },
      at: at(0),
      actor: 'u1',
      aggregateId: 'p1',
      tenantId: 't1',
    });
    const charted: RunningSessionEvent = { type: 'ChartedSessionClaimed', data: { sessionId: 'yesterday', claimedAt: at(0) } };
    given(claimed('today', -30))
      .when(backEntry('yesterday', at(-24 * 60)))
      .then(charted);
    given(claimed('today', -30), charted)
      .when(backEntry('yesterday', at(-24 * 60)))
      .then();
    // Stated after the running one began: the two would overlap.
    given(claimed('today', -30))
      .when(backEntry('yesterday', at(-10)))
      .thenError('patient-session-in-progress');
    // A second one waits for the first charted one to end; its release (or its staleness) frees the place.
    const second = backEntry('before', at(-48 * 60), { sessionId: 'yesterday', status: 'in-progress' });
    given(claimed('today', -30), charted).when(second).thenError('patient-session-in-progress');
    given(claimed('today', -30), charted).when(release('yesterday')).then(released('yesterday'));
    given(claimed('today', -30), charted, released('yesterday'))
      .when(backEntry('before', at(-48 * 60)))
      .then({ type: 'ChartedSessionClaimed', data: { sessionId: 'before', claimedAt: at(0) } });
    given(claimed('today', -30), charted)
      .when(backEntry('before', at(-48 * 60), { sessionId: 'yesterday', status: 'ended' }))
      .then(released('yesterday', 'stale-claim'), { type: 'ChartedSessionClaimed', data: { sessionId: 'before', claimedAt: at(0) } });
  });
});
