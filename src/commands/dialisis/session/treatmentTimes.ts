// Stated treatment instants (issue 21 item 1): a start and an end charted after the fact, or corrected by an amendment,
// are not in the future, the end comes after the start, and every reading, complication and pause lies between them
// (domain.md 2.12, Times). Pure.
import { FieldChecks, notFutureInstant } from '../../shared/fieldChecks.js';

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

/**
 * An end: not in the future, after the start, and not before anything recorded inside the treatment. An end at the
 * server's clock (`stated` false) may equal the start (a session ended as soon as it began).
 */
export function checkEnd(
  checks: FieldChecks,
  field: string,
  times: { startedAt: string; endedAt: string },
  at: string,
  span: EntrySpan,
  stated = true,
): void {
  const end = Date.parse(times.endedAt);
  const start = Date.parse(times.startedAt);
  checks.check(notFutureInstant(times.endedAt, at), field, 'must not be in the future');
  checks.check(stated ? end > start : end >= start, field, 'must be after the start');
  // The server's clock may trail an entry stated within the clock tolerance (notFutureInstant): only a stated end is held to it.
  if (span && stated) checks.check(end >= Date.parse(span.last), field, 'must not be before a reading, complication or pause');
}
