// Stated treatment instants (issue 21 item 1): a start and an end charted after the fact, or corrected by an amendment,
// are not in the future, the end comes after the start, and every reading, complication and pause lies between them
// (domain.md 2.12, Times). Pure.
import { FieldChecks, notFutureInstant } from '../../fieldChecks.js';

/** The first and last instants recorded inside the treatment (readings, complications, pauses), or null. */
export type EntrySpan = { first: string; last: string } | null;

/** The span widened to hold one more instant. */
export function widened(span: EntrySpan, instant: string): EntrySpan {
  if (!span) return { first: instant, last: instant };
  const t = Date.parse(instant);
  return {
    first: t < Date.parse(span.first) ? instant : span.first,
    last: t > Date.parse(span.last) ? instant : span.last,
  };
}

/** A stated start: not in the future, and not after anything already recorded inside the treatment. */
export function checkStart(checks: FieldChecks, field: string, startedAt: string, at: string, span: EntrySpan): void {
  checks.check(notFutureInstant(startedAt, at), field, 'must not be in the future');
  if (span) checks.check(Date.parse(startedAt) <= Date.parse(span.first), field, 'must not be after a reading, complication or pause');
}

/** A stated end: not in the future, after the start, and not before anything recorded inside the treatment. */
export function checkEnd(checks: FieldChecks, field: string, times: { startedAt: string; endedAt: string }, at: string, span: EntrySpan): void {
  const end = Date.parse(times.endedAt);
  checks.check(notFutureInstant(times.endedAt, at), field, 'must not be in the future');
  checks.check(end > Date.parse(times.startedAt), field, 'must be after the start');
  if (span) checks.check(end >= Date.parse(span.last), field, 'must not be before a reading, complication or pause');
}
