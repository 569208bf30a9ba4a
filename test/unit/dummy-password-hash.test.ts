import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyAgainstDummy } from '../../shared/crypto/passwords.ts';

/** `$argon2id$v=19$m=…,t=…,p=…$salt$hash` → the algorithm, version and parameters, in a fixed order. */
function parametersOf(hash: string): string {
  const [, algorithm, version, parameters] = hash.split('$');
  return [algorithm, version, parameters!.split(',').sort().join(',')].join('$');
}

describe('the dummy password hash (an unknown e-mail at login)', () => {
  it('has the parameters passwords are hashed with, so verifying against it costs what a real verification does', async () => {
    expect(parametersOf(DUMMY_PASSWORD_HASH)).toBe(parametersOf(await hashPassword('any password')));
  });

  it('matches no password a caller would send', async () => {
    expect(await verifyAgainstDummy('')).toBe(false);
    expect(await verifyAgainstDummy('password')).toBe(false);
  });
});
