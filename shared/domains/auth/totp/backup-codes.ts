import { createHmac, hkdfSync, randomInt } from 'node:crypto';

export const BACKUP_CODE_COUNT = 10;
const BACKUP_CODE_DIGITS = 8;

/** Ten distinct codes of 8 random digits (the spec's format), each usable once. */
export function generateBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(String(randomInt(0, 10 ** BACKUP_CODE_DIGITS)).padStart(BACKUP_CODE_DIGITS, '0'));
  return [...codes];
}

/**
 * How a backup code is stored. 8 digits are only 10^8 values: a plain or salted SHA-256 of one is
 * brute-forced from a database dump in seconds. An HMAC under a key derived from SECRET_KEY (which
 * the database never holds) makes the dump useless alone; binding the user id makes equal codes of
 * two users differ. Deterministic, so a code is found and consumed by one conditional UPDATE.
 */
export function hashBackupCode(secretKey: Buffer, userId: number, code: string): string {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'berth totp backup codes', 32));
  return createHmac('sha256', key).update(`${userId}:${code}`).digest('hex');
}
