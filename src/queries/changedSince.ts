// `updatedSince` of every list: the records whose last change (the runner's `_changedAt` stamp, the occurredAt of the
// last event applied to the document) is at or after an instant, and the history entries that occurred then.
import { CHANGED_AT } from '../projections/runner/projection.js';
import { ProblemError } from '../problems.js';
import type { Filter } from '../stores/readStore.js';

/**
 * The instant as stamps spell it (UTC, milliseconds: toISOString), rounded up past a finer fraction, so that a stamp
 * compares at or after it, as text, exactly when its instant is at or after the one asked for.
 */
export function stampOf(instant: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) {
    // A leap second (23:59:60) passes the date-time format; JavaScript dates have none.
    throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'updatedSince is not an instant', {}, [
      { pointer: '/query/updatedSince', message: 'not an instant this service can compare (a leap second?)' },
    ]);
  }
  const fraction = /T[^.]*\.(\d+)/.exec(instant)?.[1] ?? '';
  return new Date(ms + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0)).toISOString();
}

/**
 * The filter of a list on its documents' stamp (empty without updatedSince): spread it into the list's own filter.
 * `field`: documents the runner does not write keep their own last-change instant (e.g. webhook deliveries).
 */
export const changedSince = (updatedSince: string | undefined, field: string = CHANGED_AT): Filter =>
  updatedSince === undefined ? {} : { [field]: { $gte: stampOf(updatedSince) } };

/** For lists kept in memory (entries of a record, history): whether an entry's instant is at or after updatedSince. */
export function occurredSince(updatedSince: string | undefined): (at: string | undefined) => boolean {
  if (updatedSince === undefined) return () => true;
  const since = Date.parse(stampOf(updatedSince));
  return (at) => at !== undefined && Date.parse(at) >= since;
}
