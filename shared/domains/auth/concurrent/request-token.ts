import { createHmac } from 'node:crypto';

/**
 * The token of the concurrent-login request a pre-auth token opened: an HMAC under SECRET_KEY of that
 * pre-auth token's stored hash. Derived, not stored, so the exchange's retries, the e-mail and the
 * live session's list all show the same token while only its own hash is kept, and a copy of the
 * database alone cannot compute it. It is no bearer credential: deciding with it needs a live session
 * of the same user.
 */
export function concurrentLoginToken(secretKey: Buffer, preAuthTokenHash: string): string {
  return createHmac('sha256', secretKey).update(`berth concurrent-login request v1:${preAuthTokenHash}`).digest('base64url');
}
