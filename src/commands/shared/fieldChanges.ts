// What a correction really changes: the fields it names whose value differs (text trimmed), with the values before.

export interface FieldChanges {
  changes: Record<string, unknown>;
  previous: Record<string, unknown>;
}

/** Only `fields` count; a field absent or undefined in `patch` is left alone, null clears it. Empty when nothing changes. */
export function fieldChanges(current: object, patch: object, fields: readonly string[]): FieldChanges | null {
  const now = current as Record<string, unknown>;
  const asked = patch as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  const previous: Record<string, unknown> = {};
  for (const field of fields) {
    if (!(field in asked) || asked[field] === undefined) continue;
    const raw = asked[field];
    const after = typeof raw === 'string' ? raw.trim() : (raw ?? null);
    const before = now[field] ?? null;
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    changes[field] = after;
    previous[field] = before;
  }
  return Object.keys(changes).length === 0 ? null : { changes, previous };
}
