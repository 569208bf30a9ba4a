import { createHmac } from 'node:crypto';

/**
 * The token of the concurrent-login request a pre-auth token opened: an HMAC keyed with that
 * pre-auth token's stored hash. Derived, not stored, so the exchange's retries, the e-mail and the
 * live session's list all show the same token while only its own hash is kept. It is no bearer
 * credential: deciding with it needs a live session of the same user.
 */
export function concurrentLoginToken(preAuthTokenHash: string): string {
  return createHmac('sha256', Buffer.from(preAuthTokenHash, 'hex')).update('berth concurrent-login request v1').digest('base64url');
}
