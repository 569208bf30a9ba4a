const KEY = 'berth.device-fingerprint';

/**
 * This browser's device id, made once and kept: a known device is not asked for an e-mailed code
 * again. It is an identifier, not a secret (the approval is what counts, and it is per user).
 */
export function deviceFingerprint(): string {
  let value = localStorage.getItem(KEY);
  if (!value) {
    value = `browser-${crypto.randomUUID()}`;
    localStorage.setItem(KEY, value);
  }
  return value;
}
