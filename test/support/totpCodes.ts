// TOTP codes for tests: a well-formed code that the server must refuse.
import { generate } from 'otplib';
import type { TestServer } from './harness.js';

/** A well-formed code that is valid neither for the current nor for the previous step of the server's clock. */
export async function wrongCode(server: TestServer, totpSecret: string): Promise<string> {
  const epoch = Math.floor(server.clock.now().getTime() / 1000);
  const valid = new Set([await generate({ secret: totpSecret, epoch }), await generate({ secret: totpSecret, epoch: epoch - 30 })]);
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
