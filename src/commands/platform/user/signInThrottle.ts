// Throttling rules of sign-in, as pure functions of an account's history and the current time.
// Growing delays, never a hard lock: a locked-out nurse is a denial of service.

export interface LoginThrottlePolicy {
  /** Consecutive failures before delays start. */
  failuresBeforeDelay: number;
  /** Upper bound of failures per hour: the longest delay is at least 3600 / this. */
  maxFailuresPerHour: number;
  /** Longest delay between two attempts (raised if needed to honour maxFailuresPerHour). */
  longestDelaySeconds: number;
}

export interface CodeThrottlePolicy {
  userFailuresPerWindow: number;
  windowSeconds: number;
}

/** Delay required after the n-th consecutive failure: 0 below the threshold, then 2, 4, 8 ... seconds, capped. */
export function loginDelayAfter(consecutiveFailures: number, policy: LoginThrottlePolicy): number {
  if (consecutiveFailures < policy.failuresBeforeDelay) return 0;
  const cap = Math.max(policy.longestDelaySeconds, Math.ceil(3600 / policy.maxFailuresPerHour));
  return Math.min(cap, 2 ** (consecutiveFailures - policy.failuresBeforeDelay + 1));
}

/** Seconds the account must still wait before the next password attempt (0 = may try now). */
export function loginRetryAfterSeconds(
  history: { consecutiveFailures: number; lastFailureAt: string | null },
  at: string,
  policy: LoginThrottlePolicy,
): number {
  if (!history.lastFailureAt) return 0;
  const delayMs = loginDelayAfter(history.consecutiveFailures, policy) * 1000;
  const waitedMs = Date.parse(at) - Date.parse(history.lastFailureAt);
  return waitedMs >= delayMs ? 0 : Math.ceil((delayMs - waitedMs) / 1000);
}

/** Seconds until the user may submit another code, given the times of their recent wrong codes. */
export function codeRetryAfterSeconds(recentFailures: readonly string[], at: string, policy: CodeThrottlePolicy): number {
  const now = Date.parse(at);
  const windowMs = policy.windowSeconds * 1000;
  const inWindow = recentFailures
    .map((t) => Date.parse(t))
    .filter((t) => now - t < windowMs)
    .sort((a, b) => a - b);
  if (inWindow.length < policy.userFailuresPerWindow) return 0;
  // The attempt is allowed again once enough of the window's failures have aged out.
  const oldestThatMustLeave = inWindow[inWindow.length - policy.userFailuresPerWindow]!;
  return Math.max(1, Math.ceil((oldestThatMustLeave + windowMs - now) / 1000));
}

/** Seconds until the user may hold another challenge, given the expiry times of the open ones (0 = may now). */
export function openChallengeRetryAfterSeconds(openUntil: readonly string[], at: string, maxOpen: number): number {
  const now = Date.parse(at);
  const live = openUntil
    .map((t) => Date.parse(t))
    .filter((t) => t > now)
    .sort((a, b) => a - b);
  if (live.length < maxOpen) return 0;
  return Math.max(1, Math.ceil((live[live.length - maxOpen]! - now) / 1000));
}
