import { randomToken } from '../../crypto/tokens.ts';

/**
 * What every API token starts with: recognisable at a glance and by secret scanners (GitHub-style),
 * and what tells the bearer check to look the token up instead of verifying it as a JWT.
 */
export const API_TOKEN_MARKER = 'berth_pat_';

/** Characters of the secret after the marker kept in `prefix`, to recognise a token in lists. */
const SHOWN_CHARS = 8;

/** A new secret: the marker and 256 random bits in base64url (43 characters). */
export function mintApiTokenSecret(): string {
  return `${API_TOKEN_MARKER}${randomToken(32)}`;
}

/** Whether a bearer credential is meant as an API token (it is then never tried as an access token). */
export function isApiTokenSecret(credential: string): boolean {
  return credential.startsWith(API_TOKEN_MARKER);
}

/** The part of the secret that may be shown again: the marker and its first characters. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, API_TOKEN_MARKER.length + SHOWN_CHARS);
}
