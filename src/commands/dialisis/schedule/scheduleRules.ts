// Small rules the schedule deciders share: required text, weekday sets, date ranges.
import { FieldChecks } from '../../shared/fieldChecks.js';

/** A required free text of a command: trimmed, never blank (422 naming it). */
export function requiredText(value: string, field: string): string {
  new FieldChecks().check(value.trim().length > 0, field, 'must not be blank').throwIfAny();
  return value.trim();
}

/** Weekdays as kept: each once, in order. */
export const normalWeekdays = <T extends number>(days: readonly T[]): T[] => [...new Set(days)].sort((a, b) => a - b);

/** Two date ranges (inclusive; a missing end runs on) share at least one day. */
export function rangesOverlap(a: { from: string; to: string | null }, b: { from: string; to: string | null }): boolean {
  return (a.to === null || b.from <= a.to) && (b.to === null || a.from <= b.to);
}
