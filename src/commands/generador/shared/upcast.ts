// How a record written with an older major version reads in a newer one: each major's mapping applied in turn.
// Pure, shared by the record decider (an amendment moves a record onto the current major) and the read side.
import type { MajorVersion } from './moduleFold.js';
import type { FieldValue, RecordValues, UpcastStep } from './definitionTypes.js';

/** A value converted to another field type; undefined when it cannot be (the field is then left out). */
function converted(value: FieldValue, to: 'text' | 'number' | 'integer'): FieldValue | undefined {
  if (to === 'text') return Array.isArray(value) ? value.join(', ') : String(value);
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number)) return undefined;
  return to === 'integer' ? Math.round(number) : number;
}

/** One major's mapping applied to a record's values (a new object; the given one is not changed). */
export function applyUpcast(values: RecordValues, steps: readonly UpcastStep[]): RecordValues {
  const out: Record<string, FieldValue> = { ...values };
  for (const step of steps) {
    switch (step.op) {
      case 'rename':
        if (step.from in out) {
          out[step.to] = out[step.from]!;
          delete out[step.from];
        }
        break;
      case 'default':
        if (!(step.field in out)) out[step.field] = step.value;
        break;
      case 'convert': {
        if (!(step.field in out)) break;
        const next = converted(out[step.field]!, step.to);
        if (next === undefined) delete out[step.field];
        else out[step.field] = next;
        break;
      }
      case 'scale': {
        const value = out[step.field];
        // Rounded to 12 significant digits: a unit change must not invent binary fractions (0.1 * 3).
        if (typeof value === 'number') out[step.field] = Number((value * step.factor).toPrecision(12));
        break;
      }
      case 'mapChoices': {
        const value = out[step.field];
        const mapped = (v: string) => (Object.hasOwn(step.map, v) ? step.map[v]! : v); // never an inherited member
        if (typeof value === 'string') out[step.field] = mapped(value);
        else if (Array.isArray(value)) out[step.field] = [...new Set(value.map(mapped))];
        break;
      }
      case 'drop':
        delete out[step.field];
        break;
    }
  }
  return out;
}

/** Values written with major `from` as they read in the module's current major (its last). */
export function upcastToCurrent(
  values: RecordValues,
  from: number,
  majors: readonly Pick<MajorVersion, 'major' | 'upcast'>[],
): RecordValues {
  let out = values;
  for (const major of majors) if (major.major > from) out = applyUpcast(out, major.upcast);
  return out;
}
