// Field rules any decider shares: every broken field named in one 422, and dates judged against the command time.
import { DomainError } from '../decider.js';

/** A field that broke a rule; `field` is a path in the command data, e.g. 'birthDate' or 'serology/0/sampleDate'. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** One 422 for every broken field rule of a command, code `validation-failed` (same as schema violations). */
export function invalidFields(problems: FieldProblem[]): DomainError {
  const detail = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
  return new DomainError('validation-failed', `Invalid data: ${detail}`, 422, { errors: problems });
}

/** Collects problems and throws them together, so a client learns every broken field in one answer. */
export class FieldChecks {
  readonly problems: FieldProblem[] = [];
  /** Records the first broken rule of each field (one message per field is enough to fix it). */
  check(ok: boolean, field: string, message: string): this {
    if (!ok && !this.problems.some((p) => p.field === field)) this.problems.push({ field, message });
    return this;
  }
  throwIfAny(): void {
    if (this.problems.length > 0) throw invalidFields(this.problems);
  }
}

// No timezone is ahead of UTC by more than 14 h: a local "today" is never later than the UTC date of at + 14 h.
const MAX_UTC_OFFSET_MS = 14 * 3600 * 1000;

/** Latest calendar date that is still "today or before" somewhere on earth at instant `at`. */
export function latestLocalDate(at: string): string {
  return new Date(Date.parse(at) + MAX_UTC_OFFSET_MS).toISOString().slice(0, 10);
}

/** True when the calendar date is not in the future at the command time (in any timezone). */
export function notFutureDate(date: string, at: string): boolean {
  return date <= latestLocalDate(at);
}

/** Instants may be at most 5 minutes ahead of the server clock (devices drift). */
export function notFutureInstant(instant: string, at: string): boolean {
  return Date.parse(instant) <= Date.parse(at) + 5 * 60 * 1000;
}

/** True when `date` is a real calendar date (schemas check the format; 2024-02-30 must still fail). */
export function isRealDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}
