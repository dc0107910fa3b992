// WEBHOOK_* settings: defaults that retry for more than a day, shortened schedules for tests, bad values stop the start.
import assert from 'node:assert/strict';
import { DEFAULT_RETRY_SCHEDULE_MS, webhookSettings } from './webhookSettings.js';

describe('webhook settings', () => {
  it('defaults to https-only public targets, 10 s, 64 KiB and the day-long schedule', () => {
    assert.deepEqual(webhookSettings({}), {
      retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
      timeoutMs: 10_000,
      maxResponseBytes: 65_536,
      allowPrivateTargets: false,
    });
  });

  it('takes a shortened schedule and the private-target allowance, and refuses malformed values', () => {
    const s = webhookSettings({ WEBHOOK_RETRY_SCHEDULE_MS: '0, 50,50', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '200' });
    assert.deepEqual([s.retryScheduleMs, s.allowPrivateTargets, s.timeoutMs], [[0, 50, 50], true, 200]);
    assert.throws(() => webhookSettings({ WEBHOOK_RETRY_SCHEDULE_MS: '0,5s' }), /WEBHOOK_RETRY_SCHEDULE_MS/);
    assert.throws(() => webhookSettings({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }), /WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    assert.throws(() => webhookSettings({ WEBHOOK_TIMEOUT_MS: '0' }), /WEBHOOK_TIMEOUT_MS/);
  });
});
