// JSON Pointers (RFC 6901): how fields are named in problem details, policy changes and their history.

/** One reference token, '~' and '/' escaped. */
export const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The value a pointer names inside a document (undefined when absent). */
export function valueAtPointer(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
