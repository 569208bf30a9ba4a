import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sha512Crypt } from '../../shared/crypto/sha512-crypt.ts';

// OpenSSL's implementation is the independent reference: the edge's C library must accept what we write
const openssl = (password: string, salt: string): string =>
  execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], { input: password }).toString().trim();

describe('SHA-512-crypt', () => {
  it.each([
    ['password', 'saltsalt'],
    ['Hello world!', 'saltstring'],
    ['a long passphrase of more than sixty-four bytes, to cross a digest boundary, ü', 'abcdefghijklmnop'],
  ])('hashes %j like OpenSSL does', (password, salt) => {
    expect(sha512Crypt(password, salt)).toBe(openssl(password, salt));
  });

  it('draws a new salt every time and refuses one that is not of the alphabet', () => {
    expect(sha512Crypt('x')).not.toBe(sha512Crypt('x'));
    expect(() => sha512Crypt('x', 'bad$salt')).toThrow(/salt/);
  });
});
