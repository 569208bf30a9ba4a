import { createHmac, timingSafeEqual } from 'node:crypto';

/** RFC 6238 as authenticator apps use it: HMAC-SHA1, 30-second steps, 6 digits. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock skew accepted either side of the server's current step. */
export const TOTP_SKEW_STEPS = 1;

export function totpStep(timeMs: number): number {
  return Math.floor(timeMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** RFC 4226 HOTP: the counter as 8 big-endian bytes, dynamic truncation, the low `digits` decimals. */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export function totpCode(key: Uint8Array, step: number, digits = TOTP_DIGITS): string {
  return hotp(key, step, digits);
}

/**
 * The step a code belongs to, or null: it must be the code of the current step or one step either
 * side, and of a step later than the last one accepted, so each code works once.
 */
export function acceptedStep(key: Uint8Array, code: string, window: { nowStep: number; lastUsedStep: number | null }): number | null {
  for (let step = window.nowStep - TOTP_SKEW_STEPS; step <= window.nowStep + TOTP_SKEW_STEPS; step++) {
    if (window.lastUsedStep !== null && step <= window.lastUsedStep) continue;
    if (sameCode(totpCode(key, step), code)) return step;
  }
  return null;
}

function sameCode(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
