import argon2 from 'argon2';

/** OWASP's argon2id baseline: 19 MiB, two passes, one lane. */
const hashOptions = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Passwords are compared after NFKC, so the same password typed on two keyboards matches. */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(normalizePassword(password), hashOptions);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, normalizePassword(password));
  } catch {
    return false;
  }
}

/**
 * A hash made once with `hashOptions` (of a password nobody uses), so an unknown e-mail costs one
 * verification, as a known one does, and never a hash on top (test/unit/passwords.test.ts checks
 * its parameters are the ones above).
 */
export const DUMMY_PASSWORD_HASH = '$argon2id$v=19$m=19456,p=1,t=2$D/iy3p9OHOxD7r7SDpi62w$6eRmZwxsOh3/i4sNc9DgbT4u8CEzxiAg5YQn/w11nCk';

/**
 * Spends the time of a real verification when there is no user to verify against, so an unknown
 * e-mail and a wrong password take about as long.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(DUMMY_PASSWORD_HASH, password);
  return false;
}
