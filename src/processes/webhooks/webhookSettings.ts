// Webhook delivery settings from the environment: the retry schedule (tests shorten it), the timeout, the response cap
// and the platform allowance for private targets (tests deliver to a receiver of their own on 127.0.0.1).

export interface WebhookSettings {
  /** Delay before each attempt of a delivery, in ms (the first is usually 0); jittered, see webhookRetries.ts. */
  retryScheduleMs: readonly number[];
  /** Connect + response time of one attempt (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Bytes of a response read before the connection is dropped (the log keeps fewer). */
  maxResponseBytes: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=true: loopback and private targets, and http, are allowed (tests, closed networks). */
  allowPrivateTargets: boolean;
}

/** Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h: about 31.6 h, at least 25 h with the jitter (±20 %). */
export const DEFAULT_RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000];

function schedule(value: string | undefined): number[] {
  if (value === undefined || value === '') return DEFAULT_RETRY_SCHEDULE_MS;
  const delays = value.split(',').map((v) => v.trim());
  if (delays.length > 20 || !delays.every((d) => /^\d{1,11}$/.test(d))) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE_MS must be up to 20 comma-separated delays in ms, got ${value}`);
  }
  return delays.map(Number);
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) throw new Error(`${name} must be a positive whole number, got ${value}`);
  return Number(value);
}

export function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const allow = env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? '';
  if (!['', 'true', 'false'].includes(allow)) throw new Error(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true|false, got ${allow}`);
  return {
    retryScheduleMs: schedule(env.WEBHOOK_RETRY_SCHEDULE_MS),
    timeoutMs: positive('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
    maxResponseBytes: positive('WEBHOOK_MAX_RESPONSE_BYTES', env.WEBHOOK_MAX_RESPONSE_BYTES, 65_536),
    allowPrivateTargets: allow === 'true',
  };
}
