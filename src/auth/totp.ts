// TOTP (RFC 6238: SHA-1, 6 digits, 30 s) with otplib 13. otplib throws on malformed codes, short secrets
// and bad Base32: every throw becomes the same "invalid code" answer, so callers see one failure shape.
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

export const TOTP_PERIOD_SECONDS = 30;
const CODE_PATTERN = /^\d{6}$/;
const BASE32_PATTERN = /^[A-Z2-7]+=*$/;
/** Accept the current step and the previous one at most (clock skew and typing time), never a future one. */
const EPOCH_TOLERANCE: [number, number] = [TOTP_PERIOD_SECONDS, 0];

export type CodeCheck = { valid: true; timeStep: number } | { valid: false; replayOf?: number };

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** A Base32 secret of at least 16 bytes (RFC 4226 minimum 128 bits), as bootstrap accepts it. */
export function isAcceptableTotpSecret(secret: string): boolean {
  const s = secret.replace(/\s+/g, '').toUpperCase();
  if (!BASE32_PATTERN.test(s)) return false;
  return Math.floor((s.replace(/=+$/, '').length * 5) / 8) >= 16;
}

export function normalizeTotpSecret(secret: string): string {
  return secret.replace(/\s+/g, '').toUpperCase().replace(/=+$/, '');
}

export function timeStepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * Checks a code at the server's time. With `afterTimeStep`, steps at or below it are refused; such a
 * refusal of an otherwise valid code is reported as `replayOf` (for the audit trail).
 */
export async function checkTotpCode(secret: string, code: string, now: Date, afterTimeStep: number | null): Promise<CodeCheck> {
  if (typeof code !== 'string' || !CODE_PATTERN.test(code)) return { valid: false };
  const epoch = Math.floor(now.getTime() / 1000);
  const base = { secret, token: code, epoch, epochTolerance: EPOCH_TOLERANCE } as const;
  const matchedStep = async (afterStep?: number): Promise<number | null> => {
    const result = await verify(afterStep === undefined ? base : { ...base, afterTimeStep: afterStep });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  };
  try {
    if (afterTimeStep === null) {
      const step = await matchedStep();
      return step === null ? { valid: false } : { valid: true, timeStep: step };
    }
    // otplib throws when afterTimeStep lies beyond the window (the clock went back): nothing can match then.
    const fresh = afterTimeStep >= timeStepAt(now) ? null : await matchedStep(afterTimeStep);
    if (fresh !== null) return { valid: true, timeStep: fresh };
    const spent = await matchedStep();
    return spent === null ? { valid: false } : { valid: false, replayOf: spent };
  } catch {
    return { valid: false };
  }
}

export function otpauthUri(secret: string, accountEmail: string, issuer = 'Dialysis Records'): string {
  return generateURI({ issuer, label: accountEmail, secret, algorithm: 'sha1', digits: 6, period: TOTP_PERIOD_SECONDS });
}

/** PNG QR code of the otpauth URI as a data: URI, for the enrollment answer. */
export function qrPngDataUri(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2 });
}

/** QR code drawn with terminal characters, for the first start's console output. */
export function qrForTerminal(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'terminal', small: true });
}
