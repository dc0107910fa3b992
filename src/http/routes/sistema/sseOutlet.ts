// One Server-Sent Events answer: a Readable its pump writes into (waiting while the client reads slower), stopped by the
// client's hang-up or the service's shutdown; the change feed and the live dashboards both stream through it.
import { Readable } from 'node:stream';

export interface SseOutlet {
  readonly stream: Readable;
  /** Aborted when the client hangs up. */
  readonly hangUp: AbortSignal;
  readonly stopped: () => boolean;
  /** Queues a chunk; waits while the client reads slower than chunks come. */
  readonly write: (chunk: string) => Promise<void>;
  /** Runs the pump; when it ends or fails (reported to `failed`), releases the stream's slot and ends the stream. */
  readonly run: (pump: () => Promise<void>, failed: (error: unknown) => void, release: () => void) => Readable;
}

export function sseOutlet(closing: AbortSignal): SseOutlet {
  const hangUp = new AbortController();
  let wantMore: (() => void) | null = null;
  const stream = new Readable({
    read() {
      wantMore?.();
      wantMore = null;
    },
    destroy(error, callback) {
      hangUp.abort();
      wantMore?.();
      callback(error);
    },
  });
  const stopped = () => hangUp.signal.aborted || closing.aborted;
  return {
    stream,
    hangUp: hangUp.signal,
    stopped,
    write: async (chunk) => {
      if (stream.push(chunk) || stopped()) return;
      await new Promise<void>((resolve) => (wantMore = resolve));
    },
    run: (pump, failed, release) => {
      void pump()
        .catch(failed)
        .finally(() => {
          release();
          if (!stream.destroyed) stream.push(null);
        });
      return stream;
    },
  };
}
