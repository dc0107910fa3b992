// The dotted paths of a collection that have ever held an array. MongoDB matches `{tags: 'hd'}` against an
// element of an array and SQL cannot over JSON text, so a filter on such a path is left to mingo.
export class ArrayPaths {
  private readonly paths: Set<string>;

  constructor(known: readonly string[] = []) {
    this.paths = new Set(known);
  }

  /** True when the path, or any path it goes through, has held an array. */
  covers(path: string): boolean {
    if (this.paths.size === 0) return false;
    let end = path.indexOf('.');
    while (end >= 0) {
      if (this.paths.has(path.slice(0, end))) return true;
      end = path.indexOf('.', end + 1);
    }
    return this.paths.has(path);
  }

  /** Records the array paths of a document; true when one was new (the caller persists the set). */
  learn(doc: Record<string, unknown>): boolean {
    return this.walk(doc, '', 0);
  }

  /** Adds paths another connection learned. */
  merge(paths: readonly string[]): void {
    for (const path of paths) this.paths.add(path);
  }

  list(): string[] {
    return [...this.paths].sort();
  }

  private walk(value: Record<string, unknown>, prefix: string, depth: number): boolean {
    let learned = false;
    for (const key in value) {
      const child = value[key];
      if (child === null || typeof child !== 'object') continue;
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (Array.isArray(child)) {
        if (!this.paths.has(path)) {
          this.paths.add(path);
          learned = true;
        }
      } else if (depth < 8 && this.walk(child as Record<string, unknown>, path, depth + 1)) learned = true;
    }
    return learned;
  }
}
