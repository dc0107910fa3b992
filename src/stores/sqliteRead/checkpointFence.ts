// The read-model file's glance (recoverableReadStore.ts, main thread) reads its header and size as plain bytes: a WAL
// checkpoint half done (page 1 written, the file not yet grown) looks like a truncated file. On one thread they never
// interleave; with the projector thread writing (and checkpointing inside its COMMITs) this fence, in memory shared by
// both threads, keeps them apart: the writer holds it around each write, the glance only tries it and else waits a turn.
const FREE = 0;
const WRITING = 1;
const GLANCING = 2;

export class CheckpointFence {
  constructor(readonly cells: Int32Array = new Int32Array(new SharedArrayBuffer(4))) {}

  /** The writing thread: runs `work` (synchronous SQLite writes, or an async call up to its first await) fenced. */
  hold<T>(work: () => T): T {
    while (Atomics.compareExchange(this.cells, 0, FREE, WRITING) !== FREE) Atomics.wait(this.cells, 0, GLANCING, 5);
    try {
      return work();
    } finally {
      Atomics.store(this.cells, 0, FREE);
      Atomics.notify(this.cells, 0);
    }
  }

  /** The glancing thread: `look` when no write is under way, else undefined at once (never blocks the event loop). */
  tryGlance<T>(look: () => T): T | undefined {
    if (Atomics.compareExchange(this.cells, 0, FREE, GLANCING) !== FREE) return undefined;
    try {
      return look();
    } finally {
      Atomics.store(this.cells, 0, FREE);
      Atomics.notify(this.cells, 0);
    }
  }
}
