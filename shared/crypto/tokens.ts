import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random token for a URL or header: `bytes` random bytes, base64url without padding. */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** How tokens are stored: only their SHA-256, so a database leak gives nothing to replay. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}
