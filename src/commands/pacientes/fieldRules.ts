// Rules on single values and between fields (domain.md 2.12). JSON Schemas check shapes and plain ranges;
// these check what a schema cannot: one decimal, dates against the command time, date order.
import { notFutureDate } from '../shared/fieldChecks.js';

export * from '../shared/fieldChecks.js';

export const MIN_WEIGHT_KG = 5;
export const MAX_WEIGHT_KG = 300;

/** Weight in kg: 5-300 with at most one decimal (A5 range). Null when valid, else why not. */
export function weightProblem(kg: number): string | null {
  if (!Number.isFinite(kg) || kg < MIN_WEIGHT_KG || kg > MAX_WEIGHT_KG) return `must be between ${MIN_WEIGHT_KG} and ${MAX_WEIGHT_KG} kg`;
  if (Math.abs(kg * 10 - Math.round(kg * 10)) > 1e-6) return 'must have at most one decimal';
  return null;
}

export const MAX_AGE_YEARS = 130;

/** A birth date is plausible when not in the future and at most 130 years ago. */
export function birthDateProblem(birthDate: string, at: string): string | null {
  if (!notFutureDate(birthDate, at)) return 'must not be in the future';
  const earliest = `${String(Number(at.slice(0, 4)) - MAX_AGE_YEARS).padStart(4, '0')}${at.slice(4, 10)}`;
  if (birthDate < earliest) return `must be within the last ${MAX_AGE_YEARS} years`;
  return null;
}
