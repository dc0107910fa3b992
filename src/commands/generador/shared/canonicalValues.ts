// One spelling per value where the contract admits several: a date-time is kept as its UTC instant
// (`2026-03-01T09:30:00.000Z`), so equal instants compare equal and text order is time order in filters and sorts.
import type { FieldValue, ModuleField } from './definitionTypes.js';

/** The UTC instant of an RFC 3339 date-time, or the text unchanged when it is not one (the rules then refuse it). */
export function canonicalInstant(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** A field's value in its one spelling. */
export const canonicalValue = (field: ModuleField | undefined, value: FieldValue): FieldValue =>
  field?.type === 'date-time' && typeof value === 'string' ? canonicalInstant(value) : value;

/** Values (a null clears: kept as it is) with each date-time in its one spelling. */
export function canonicalValues<V extends FieldValue | null>(
  fields: ReadonlyMap<string, ModuleField>,
  values: Record<string, V>,
): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [name, value] of Object.entries(values)) out[name] = (value === null ? value : canonicalValue(fields.get(name), value)) as V;
  return out;
}
