// Field projections of `find` for the in-process adapters: the common top-level inclusion picks fields by
// hand, anything else goes through mingo.
import { find as mingoFind } from 'mingo';
import type { ReadDoc } from './readStore.js';
import { plainClone } from './embedded/plainClone.js';

/** The fields of a projection that only includes top-level fields (the common case), else null. */
export function topLevelInclusion(projection: Record<string, 0 | 1>): string[] | null {
  const fields = Object.keys(projection);
  if (fields.some((f) => f.includes('.') || f.startsWith('$') || (projection[f] !== 1 && !(f === '_id' && projection[f] === 0))))
    return null;
  return fields.filter((f) => projection[f] === 1);
}

/** A copy of just the named fields; like MongoDB, `id`-less projections still need the document keys. */
export function pickFields(doc: ReadDoc, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (doc[f] !== undefined) out[f] = plainClone(doc[f]);
  return out;
}

/** The document as the projection shows it (a new object; the input is left alone). */
export function projected(doc: ReadDoc, projection: Record<string, 0 | 1>): Record<string, unknown> {
  const fields = topLevelInclusion(projection);
  if (fields) return pickFields(doc, fields);
  return mingoFind([doc], {}, projection).all()[0] as Record<string, unknown>;
}
