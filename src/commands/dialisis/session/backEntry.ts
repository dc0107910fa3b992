// Back-entry of a past session (issue 21 item 1): a session charted after the fact whose treatment lies before the
// machine's present takes no live claim of its equipment; its end records the use as history (hours, session count,
// dialyzer and line uses) and never frees or occupies what the equipment is doing now.

/** Who holds the machine now (its stream's current session), if anyone. */
export interface MachineHolder {
  sessionId: string;
  startedAt: string;
}

/**
 * A stated start is history, not a live start, when the session is of a past date (scheduled with its late-entry
 * reason: that day is over, so its treatment has ended) or when it began before the session holding the machine now
 * took it (one patient per machine: it must have ended before that one began). Without a stated start it is live.
 */
export function isBackEntry(stated: string | undefined, lateEntry: boolean, holder: MachineHolder | null, sessionId: string): boolean {
  if (stated === undefined) return false;
  if (lateEntry) return true;
  return holder !== null && holder.sessionId !== sessionId && Date.parse(stated) < Date.parse(holder.startedAt);
}

export const PAST_DATE_START = 'a session of a past date states the instant its treatment began';

/** A session of a past date (scheduled with its late-entry reason) started without a stated start: never now. */
export const pastDateWithoutStart = (state: { scheduled: { lateEntryReason?: string } | null }, stated: string | undefined): boolean =>
  state.scheduled?.lateEntryReason !== undefined && stated === undefined;

/** Machine states that say what it does now, not what it could do then: a back-entered session is not refused by them. */
const PRESENT_ONLY_STATES = new Set(['in-use', 'awaiting-disinfection', 'disinfecting', 'available']);

/**
 * The machine's refusal reasons that still hold for a back-entered session: isolation, calibration and maintenance (as of
 * the stated start) stay; being in use or awaiting disinfection now does not. Out of service or retired still refuses:
 * when that began is not known here.
 */
export function historyMachineReasons(reasons: string[], status: string): string[] {
  if (!PRESENT_ONLY_STATES.has(status)) return reasons;
  return reasons.filter((code) => code !== 'not-available' && code !== 'awaiting-disinfection');
}

/**
 * A back-entered session's stated end lies before the session holding its machine now began (one patient per machine):
 * true when nobody else holds it.
 */
export function endsBeforeHolder(end: string, holder: MachineHolder | null, sessionId: string): boolean {
  return holder === null || holder.sessionId === sessionId || Date.parse(end) <= Date.parse(holder.startedAt);
}
