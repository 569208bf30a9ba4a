import fs from 'node:fs';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dirs.ts';
import { loadConfig } from '../../shared/config/config.ts';
import { configErrorOf } from '../helpers/config-errors.ts';

const dataDir = useTempDirs('berth-config-');

describe('loadConfig', () => {
  it('runs on local defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBe('postgres://berth:berth@127.0.0.1:5432/berth');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379/0');
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.smtpUrl).toBeUndefined();
    expect(config.trustedProxies).toEqual([]);
    expect(config.rateLimits.login).toEqual({ limit: 10, windowMs: 60_000 });
  });

  it.each([
    ['PORT', 'eighty', 'PORT'],
    ['PORT', '70000', 'PORT'],
    ['DATABASE_URL', 'mysql://x/y', 'DATABASE_URL'],
    ['REDIS_URL', 'not a url', 'REDIS_URL'],
    ['PUBLIC_URL', 'ftp://panel.example', 'PUBLIC_URL'],
    ['PUBLIC_URL', 'https://panel.example/sub/path', 'PUBLIC_URL'],
    ['SMTP_URL', 'http://mail', 'SMTP_URL'],
    ['TRUSTED_PROXIES', '10.0.0.1,not-an-ip', 'TRUSTED_PROXIES'],
    ['RATE_LIMIT_LOGIN', 'ten per minute', 'RATE_LIMIT_LOGIN'],
    ['NODE_ENV', 'staging', 'NODE_ENV'],
    ['SECRET_KEY', 'c2hvcnQ=', 'SECRET_KEY'],
    ['JWT_PRIVATE_KEY', 'garbage', 'JWT_PRIVATE_KEY'],
    ['BILLING_SWEEP_INTERVAL_MS', '500', 'BILLING_SWEEP_INTERVAL_MS'],
  ])('names %s when it is %j', (variable, value, named) => {
    expect(configErrorOf(dataDir, { [variable]: value })).toContain(named);
  });

  it('turns the billing sweep off with BILLING_SWEEP_INTERVAL_MS=0 (hourly by default)', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).billing.sweepIntervalMs).toBe(3_600_000);
    expect(loadConfig({ DATA_DIR: dataDir(), BILLING_SWEEP_INTERVAL_MS: '0' }).billing.sweepIntervalMs).toBe(0);
  });

  it('refuses a JWT key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(configErrorOf(dataDir, { JWT_PRIVATE_KEY: rsa })).toMatch(/JWT_PRIVATE_KEY: must be an Ed25519 key/);
  });

  it('requires the secrets, SMTP and URLs in production', () => {
    const message = configErrorOf(dataDir, { NODE_ENV: 'production' });
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL', 'SMTP_URL', 'JWT_PRIVATE_KEY', 'SECRET_KEY']) {
      expect(message).toContain(`${variable}: required in production`);
    }
  });

  it('parses trusted proxies, rate limits and trims the public URL', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,loopback',
      RATE_LIMIT_EMAIL: '3/15m',
      PUBLIC_URL: 'https://panel.example.com/',
    });
    expect(config.trustedProxies).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback']);
    expect(config.rateLimits.email).toEqual({ limit: 3, windowMs: 900_000 });
    expect(config.publicUrl).toBe('https://panel.example.com');
  });

  it('generates development secrets once and keeps them in the data directory', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.secrets.secretKey.equals(second.secrets.secretKey)).toBe(true);
    expect(first.secrets.jwtPrivateKey.export({ type: 'pkcs8', format: 'pem' })).toEqual(second.secrets.jwtPrivateKey.export({ type: 'pkcs8', format: 'pem' }));
    const keyFile = path.join(dir, 'secrets', 'jwt-ed25519.pem');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('takes the dunning schedule as increasing days before BILLING_UNPAID_AFTER_DAYS', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).billing.dunningScheduleDays).toEqual([1, 3, 5, 7]);
    expect(loadConfig({ DATA_DIR: dataDir(), BILLING_DUNNING_SCHEDULE_DAYS: '2, 4,9', BILLING_UNPAID_AFTER_DAYS: '10' }).billing.dunningScheduleDays).toEqual([
      2, 4, 9,
    ]);
    // Unset, the default keeps the days before a shorter BILLING_UNPAID_AFTER_DAYS, so such a deployment still starts.
    expect(loadConfig({ DATA_DIR: dataDir(), BILLING_UNPAID_AFTER_DAYS: '7' }).billing.dunningScheduleDays).toEqual([1, 3, 5]);
    expect(configErrorOf(dataDir, { BILLING_DUNNING_SCHEDULE_DAYS: '1,3,14' })).toContain(
      'BILLING_DUNNING_SCHEDULE_DAYS: day 14 is not before BILLING_UNPAID_AFTER_DAYS (14): every attempt must come before the entitlements are withdrawn',
    );
    expect(configErrorOf(dataDir, { BILLING_DUNNING_SCHEDULE_DAYS: '3,1' })).toContain('BILLING_DUNNING_SCHEDULE_DAYS: days must increase (3 then 1)');
    expect(configErrorOf(dataDir, { BILLING_DUNNING_SCHEDULE_DAYS: '1,3,3' })).toContain('days must increase');
    expect(configErrorOf(dataDir, { BILLING_DUNNING_SCHEDULE_DAYS: '1,two' })).toContain('BILLING_DUNNING_SCHEDULE_DAYS');
    expect(configErrorOf(dataDir, { BILLING_DUNNING_SCHEDULE_DAYS: '1,-3' })).toContain('BILLING_DUNNING_SCHEDULE_DAYS');
  });

  it("takes the seller's country as an ISO 3166-1 alpha-2 code, none by default", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).billing.sellerCountry).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), BILLING_SELLER_COUNTRY: 'de' }).billing.sellerCountry).toBe('DE');
    expect(configErrorOf(dataDir, { BILLING_SELLER_COUNTRY: 'XX' })).toContain('BILLING_SELLER_COUNTRY: must be an ISO 3166-1 alpha-2 country code');
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '' }).port).toBe(8080);
  });
});
