import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../shared/crypto/passwords.ts';
import { seal, unseal } from '../../shared/crypto/sealed.ts';
import { hashToken, randomToken, safeEqual } from '../../shared/crypto/tokens.ts';
import { normalizeEmail, assertPasswordPolicy } from '../../shared/domains/auth/identity.ts';
import { ValidationFailed } from '../../shared/errors.ts';

describe('tokens', () => {
  it('makes base64url tokens of the asked size', () => {
    expect(randomToken(36)).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(randomToken(32)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(32)).not.toBe(randomToken(32));
  });

  it('stores SHA-256 hex of a token', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('compares in constant time, whatever the lengths', () => {
    expect(safeEqual('same', 'same')).toBe(true);
    expect(safeEqual('same', 'Same')).toBe(false);
    expect(safeEqual('short', 'much longer value')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('passwords', () => {
  it('hashes with argon2id m=19456 t=2 p=1 and verifies', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'correct horsE')).toBe(false);
  });

  it('verifies NFKC-equivalent spellings alike', async () => {
    const hash = await hashPassword('ｐａｓｓｗｏｒｄ１２');
    expect(await verifyPassword(hash, 'password12')).toBe(true);
  });

  it('treats a corrupt hash as a failed verification', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });

  it('enforces 8 to 128 characters after NFKC', () => {
    expect(() => assertPasswordPolicy('1234567')).toThrow(ValidationFailed);
    expect(() => assertPasswordPolicy('12345678')).not.toThrow();
    expect(() => assertPasswordPolicy('x'.repeat(128))).not.toThrow();
    expect(() => assertPasswordPolicy('x'.repeat(129))).toThrow(/password: must be 8 to 128 characters/);
    // eight emoji are eight characters, not sixteen UTF-16 units
    expect(() => assertPasswordPolicy('🔑'.repeat(8))).not.toThrow();
    expect(() => assertPasswordPolicy('🔑'.repeat(65))).not.toThrow();
  });
});

describe('e-mail normalisation', () => {
  it('lower-cases, trims and applies NFKC', () => {
    expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com');
    expect(normalizeEmail('ａｎｎ@example.com')).toBe('ann@example.com');
  });
});

describe('sealed values', () => {
  const key = randomBytes(32);

  it('round-trips and never repeats a ciphertext', () => {
    const first = seal(key, 'JBSWY3DPEHPK3PXP');
    expect(unseal(key, first)).toBe('JBSWY3DPEHPK3PXP');
    expect(seal(key, 'JBSWY3DPEHPK3PXP')).not.toBe(first);
  });

  it('refuses a tampered value or another key', () => {
    const sealed = seal(key, 'secret');
    const parts = sealed.split('.');
    parts[2] = Buffer.from('Secret').toString('base64url');
    expect(() => unseal(key, parts.join('.'))).toThrow();
    expect(() => unseal(randomBytes(32), sealed)).toThrow();
    expect(() => unseal(key, 'v2.a.b.c')).toThrow(/not a sealed value/);
  });
});
