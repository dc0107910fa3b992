// Password hashing: argon2id with the OWASP/ASVS minimum (19 MiB, t=2, p=1).
import argon2 from 'argon2';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_POLICY = { minLength: 8, maxLength: 1024 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

let dummyHash: Promise<string> | null = null;

/**
 * Verifies a password against a stored hash; with no hash (unknown e-mail) it verifies against a dummy
 * hash with the same parameters, so the answer takes as long either way.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    dummyHash ??= argon2.hash('dummy password that never matches', OPTIONS);
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
