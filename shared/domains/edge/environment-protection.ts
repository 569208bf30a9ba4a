import { randomBytes } from 'node:crypto';
import { sha512Crypt } from '../../crypto/sha512-crypt.ts';
import type { EnvironmentKind } from '../../db/models.ts';

/**
 * The credentials a new staging or development environment is protected with (search engines and
 * strangers kept off copies of a site): the password is shown once, in the answer that made it.
 */
export function newEnvironmentCredentials(kind: Exclude<EnvironmentKind, 'production'>): { username: string; password: string; hash: string } {
  const password = randomBytes(15).toString('base64url');
  return { username: kind, password, hash: sha512Crypt(password) };
}
