import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, normalizePassword } from '../../crypto/passwords.ts';
import { ValidationFailed } from '../../errors.ts';

/** E-mail addresses are stored and compared lower-cased and NFKC-normalised. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/** The password policy: 8 to 128 characters after NFKC, counted as characters, not bytes. */
export function assertPasswordPolicy(password: string, field = 'password'): void {
  const length = [...normalizePassword(password)].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw ValidationFailed.field(field, `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
}
