import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from './totp-code.ts';

export const TOTP_ISSUER = 'Berth';

/**
 * The Key URI an authenticator app scans (Google's "Key Uri Format"): the label is
 * `Berth:<e-mail>`, and every parameter is spelled out, defaults included, so no app has to guess.
 */
export function otpauthUri(email: string, secret: string): string {
  const params = new URLSearchParams({
    secret,
    issuer: TOTP_ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  });
  return `otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(email)}?${params}`;
}
