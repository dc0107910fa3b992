// A projection held back on some event types while a test makes its read model lag behind the others' (the reads under
// test must wait for it, or fall back to the log).
import type { Projection } from '../../src/projections/runner/projection.js';

/** A projection whose events of these types wait while its gate is held (the others' projections run on). */
export function held(projection: Projection, types: readonly string[]) {
  const gate = { held: null as Promise<void> | null, release: () => {} };
  const holding: Projection = {
    ...projection,
    handle: (event, tx) =>
      gate.held && types.includes(event.type) ? gate.held.then(() => projection.handle(event, tx)) : projection.handle(event, tx),
  };
  return {
    projection: holding,
    hold: () => void (gate.held = new Promise<void>((resolve) => (gate.release = resolve))),
    release: () => {
      gate.held = null;
      gate.release();
    },
  };
}
