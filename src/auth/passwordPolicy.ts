// A new password per OWASP ASVS 5.0 V6.2: long enough, no composition rules, not a common or breached password,
// and not made of the user's own e-mail or name. Length counts Unicode code points; nothing is trimmed.
import { createRequire } from 'node:module';
import { LIMITS } from '../limits.js';

export type PasswordRefusal = 'too-short' | 'too-long' | 'breached' | 'contains-identity';

export type PasswordCheck = { ok: true } | { ok: false; reason: PasswordRefusal; detail: string };

export interface PasswordContext {
  email?: string;
  name?: string;
}

interface CommonLanguagePackage {
  dictionary: { 'passwords-common': string[] };
}

let commonPasswords: ReadonlySet<string> | null = null;

// Read on first use: the package decompresses its list when loaded, which no other code path needs.
function commonPasswordSet(): ReadonlySet<string> {
  if (commonPasswords === null) {
    const pkg = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as CommonLanguagePackage;
    commonPasswords = new Set(pkg.dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }
  return commonPasswords;
}

/** Entries of the bundled common and breached password list (zxcvbn-ts `passwords-common`). */
export function commonPasswordCount(): number {
  return commonPasswordSet().size;
}

const codePoints = (s: string): number => [...s].length;

// The whole value and each run of letters or digits in it, lower-cased, kept when long enough to mean something.
function identityParts(value: string | undefined): string[] {
  if (!value) return [];
  const lower = value.normalize('NFC').toLowerCase().trim();
  const parts = [lower, ...lower.split(/[^\p{L}\p{N}]+/u)];
  return parts.filter((p) => codePoints(p) >= LIMITS.newPassword.identityPartMinChars);
}

function localPart(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at);
}

/** Checks a password a user is choosing (not one presented at sign-in: those are only verified against the hash). */
export function checkNewPassword(password: string, context: PasswordContext): PasswordCheck {
  const { minChars, maxChars } = LIMITS.newPassword;
  const length = codePoints(password);
  if (length < minChars) return { ok: false, reason: 'too-short', detail: `a password has at least ${minChars} characters` };
  if (length > maxChars) return { ok: false, reason: 'too-long', detail: `a password has at most ${maxChars} characters` };
  const lower = password.toLowerCase();
  if (commonPasswordSet().has(lower)) {
    return { ok: false, reason: 'breached', detail: 'this password is in a list of common or breached passwords' };
  }
  const comparable = password.normalize('NFC').toLowerCase();
  if (identityParts(context.email === undefined ? undefined : localPart(context.email)).some((p) => comparable.includes(p))) {
    return { ok: false, reason: 'contains-identity', detail: 'a password may not contain the e-mail address' };
  }
  if (identityParts(context.name).some((p) => comparable.includes(p))) {
    return { ok: false, reason: 'contains-identity', detail: "a password may not contain the user's name" };
  }
  return { ok: true };
}
