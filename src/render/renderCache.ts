// Rendered bytes by record, bounded by their total size, least recently used out first (issue 20 item 5). One entry per
// record: a new version replaces the old one, so an unchanged record is never rendered twice while it stays cached.

interface Entry {
  version: string;
  bytes: Buffer;
}

export class RenderCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The bytes of `key` when they were rendered from this `version`. */
  get(key: string, version: string): Buffer | null {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return null;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.bytes;
  }

  set(key: string, version: string, bytes: Buffer): void {
    this.drop(key);
    // One answer larger than a quarter of the budget would flush everything else: it is not kept.
    if (bytes.length > this.maxBytes / 4) return;
    this.entries.set(key, { version, bytes });
    this.totalBytes += bytes.length;
    for (const [oldest] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  stats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.entries.size, bytes: this.totalBytes, maxBytes: this.maxBytes };
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes.length;
  }
}
