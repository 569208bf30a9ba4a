import { createHash, randomBytes } from 'node:crypto';
import { generate as otplibGenerate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { lockDurationMs } from '../../shared/domains/auth/account-throttle.ts';
import { base32Decode, base32Encode } from '../../shared/domains/auth/totp/base32.ts';
import { BACKUP_CODE_COUNT, generateBackupCodes, hashBackupCode } from '../../shared/domains/auth/totp/backup-codes.ts';
import { otpauthUri } from '../../shared/domains/auth/totp/otpauth-uri.ts';
import { acceptedStep, hotp, totpCode, totpStep } from '../../shared/domains/auth/totp/totp-code.ts';

const rfcSecret = Buffer.from('12345678901234567890', 'ascii');

describe('base32 (RFC 4648)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
    ['12345678901234567890', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'],
  ];

  it.each(vectors)('encodes %j as %s (no padding)', (plain, encoded) => {
    expect(base32Encode(Buffer.from(plain, 'ascii'))).toBe(encoded);
  });

  it.each(vectors)('decodes back to %j, padded or not, in either case', (plain, encoded) => {
    expect(base32Decode(encoded).toString('ascii')).toBe(plain);
    expect(base32Decode(encoded.toLowerCase()).toString('ascii')).toBe(plain);
    expect(base32Decode(encoded.padEnd(Math.ceil(encoded.length / 8) * 8, '=')).toString('ascii')).toBe(plain);
  });

  it('round-trips random 20-byte secrets into 32 characters', () => {
    for (let round = 0; round < 50; round++) {
      const bytes = randomBytes(20);
      const encoded = base32Encode(bytes);
      expect(encoded).toMatch(/^[A-Z2-7]{32}$/);
      expect(base32Decode(encoded).equals(bytes)).toBe(true);
    }
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => base32Decode('MZXW1')).toThrow('not base32');
    expect(() => base32Decode('MZ XW')).toThrow('not base32');
  });
});

describe('HOTP (RFC 4226 appendix D)', () => {
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];

  it.each(expected.map((code, counter) => [counter, code] as const))('counter %i gives %s', (counter, code) => {
    expect(hotp(rfcSecret, counter)).toBe(code);
  });
});

describe('TOTP (RFC 6238 appendix B, SHA-1)', () => {
  const vectors: Array<[number, string]> = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];

  it.each(vectors)('T=%i gives %s (8 digits)', (seconds, code) => {
    expect(totpCode(rfcSecret, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('uses 30-second steps and 6 digits by default', () => {
    expect(totpStep(0)).toBe(0);
    expect(totpStep(29_999)).toBe(0);
    expect(totpStep(30_000)).toBe(1);
    expect(totpCode(rfcSecret, totpStep(59_000))).toBe('287082');
  });
});

describe('against otplib, an independent implementation', () => {
  it('gives the same code for random secrets and times', async () => {
    for (let round = 0; round < 20; round += 1) {
      const secret = randomBytes(20);
      const epochSeconds = 1_700_000_000 + round * 7_919;
      const ours = totpCode(secret, totpStep(epochSeconds * 1000));
      const theirs = await otplibGenerate({ secret: base32Encode(secret), epoch: epochSeconds });
      expect(ours, `round ${round}`).toBe(theirs);
    }
  });
});

describe('the accepted-step window', () => {
  const key = randomBytes(20);
  const nowStep = totpStep(Date.now());
  const codeAt = (offset: number) => totpCode(key, nowStep + offset);

  it('accepts the current step and one step either side, and names the step', () => {
    for (const offset of [-1, 0, 1]) expect(acceptedStep(key, codeAt(offset), { nowStep, lastUsedStep: null })).toBe(nowStep + offset);
  });

  it('refuses two steps or more either side', () => {
    for (const offset of [-3, -2, 2, 3]) {
      const code = codeAt(offset);
      // A code of a far step could equal a near step's by chance (1 in 10^6); then the test says nothing.
      if ([-1, 0, 1].some((near) => codeAt(near) === code)) continue;
      expect(acceptedStep(key, code, { nowStep, lastUsedStep: null })).toBeNull();
    }
  });

  it('refuses any step at or before the last one accepted', () => {
    expect(acceptedStep(key, codeAt(0), { nowStep, lastUsedStep: nowStep })).toBeNull();
    expect(acceptedStep(key, codeAt(-1), { nowStep, lastUsedStep: nowStep - 1 })).toBeNull();
    expect(acceptedStep(key, codeAt(-1), { nowStep, lastUsedStep: nowStep })).toBeNull();
    expect(acceptedStep(key, codeAt(1), { nowStep, lastUsedStep: nowStep })).toBe(nowStep + 1);
    expect(acceptedStep(key, codeAt(0), { nowStep, lastUsedStep: nowStep - 1 })).toBe(nowStep);
  });

  it('refuses wrong codes and codes of another length', () => {
    const wrong = String((Number(codeAt(0)) + 1) % 1_000_000).padStart(6, '0');
    if (![-1, 1].some((near) => codeAt(near) === wrong)) expect(acceptedStep(key, wrong, { nowStep, lastUsedStep: null })).toBeNull();
    expect(acceptedStep(key, `${codeAt(0)}0`, { nowStep, lastUsedStep: null })).toBeNull();
    expect(acceptedStep(key, codeAt(0).slice(1), { nowStep, lastUsedStep: null })).toBeNull();
    expect(acceptedStep(key, '', { nowStep, lastUsedStep: null })).toBeNull();
  });
});

describe('otpauth URI', () => {
  it('labels the account Berth:<e-mail> and spells out every parameter', () => {
    const uri = otpauthUri('ann+2fa@example.com', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(uri).toBe('otpauth://totp/Berth:ann%2B2fa%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Berth&algorithm=SHA1&digits=6&period=30');
  });
});

describe('backup codes', () => {
  it('are ten distinct codes of 8 digits', () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(BACKUP_CODE_COUNT);
    expect(new Set(codes).size).toBe(BACKUP_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^\d{8}$/);
  });

  it('are stored as an HMAC bound to the key and the user, not as a plain hash', () => {
    const key = randomBytes(32);
    const hash = hashBackupCode(key, 7, '12345678');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashBackupCode(key, 7, '12345678')).toBe(hash);
    expect(hash).not.toBe(createHash('sha256').update('12345678').digest('hex'));
    expect(hashBackupCode(key, 8, '12345678')).not.toBe(hash);
    expect(hashBackupCode(randomBytes(32), 7, '12345678')).not.toBe(hash);
    expect(hashBackupCode(key, 7, '12345679')).not.toBe(hash);
  });
});

describe('account throttle lock durations', () => {
  it('is free for 4 failures, then locks 1, 2, 4, 8 and at most 15 minutes', () => {
    const minutes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20].map((failures) => lockDurationMs(failures) / 60_000);
    expect(minutes).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 15, 15, 15]);
  });
});
