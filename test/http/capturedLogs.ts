// The service's JSON log lines captured while a suite runs, and the access line of one request: what the observability
// tests read the access log through.
import assert from 'node:assert/strict';
import type { Json } from './staffWorld.js';

/** Captures the service's JSON log lines (stdout and stderr) while the suite runs; other output passes through. */
export function captureLogs(): { lines: Json[]; restore(): void } {
  const lines: Json[] = [];
  const originals = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)] as const;
  for (const [i, stream] of [process.stdout, process.stderr].entries()) {
    const original = originals[i]!;
    stream.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      const text = String(chunk);
      if (!text.startsWith('{"time":')) return original(chunk, ...rest);
      for (const line of text.split('\n').filter((l) => l !== '')) lines.push({ ...JSON.parse(line), raw: line });
      return true;
    };
  }
  return {
    lines,
    restore() {
      process.stdout.write = originals[0];
      process.stderr.write = originals[1];
    },
  };
}

/** The access line of the request whose answer carried this correlation id (it is written when the answer closes). */
export async function accessLine(lines: Json[], correlationId: string): Promise<Json> {
  for (let i = 0; i < 100; i++) {
    const found = lines.find((l) => l.msg === 'access' && l.correlationId === correlationId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`no access line for ${correlationId}`);
}
