// Deep copy of plain JSON-like documents, several times faster than structuredClone for small objects.
// Read models are plain data: objects, arrays, primitives and (rarely) Dates. Undefined fields are
// dropped, as the Mongo adapter does (ignoreUndefined), so both stores hold the same documents.
export function plainClone<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = plainClone(value[i]);
    return out as T;
  }
  if (value instanceof Date) return new Date(value.getTime()) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = plainClone(v);
  }
  return out as T;
}
