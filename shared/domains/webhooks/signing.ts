import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and base64 of
 * its key bytes; a signature is `v1,` and the base64 HMAC-SHA256, under that key, of
 * `<webhook-id>.<webhook-timestamp>.<body>`. Several signatures are separated by spaces (a receiver
 * accepts the message when any one verifies), which is how a rotated secret keeps working for a while.
 */
export const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('not a webhook signing secret');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

/** The three headers of a delivery, signed with every secret given (the current one first). */
export function signedHeaders(secrets: readonly string[], messageId: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, messageId, timestamp, body)).join(' '),
  };
}
