import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.ts';
import { useTempDirs } from '../helpers/temp-dirs.ts';
import { configErrorOf } from '../helpers/config-errors.ts';

const dataDir = useTempDirs('berth-stripe-config-');
const KEY = 'sk_test_secret_value_1';
const SECRET = 'whsec_secret_value_2';

describe("the Stripe provider's configuration", () => {
  it('is off by default: manual payments, no Stripe account', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.billing.provider).toBe('manual');
    expect(config.billing.stripe).toBeNull();
  });

  it("takes the key and the webhook secret together, and a stand-in's address", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: KEY,
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_BASE: 'http://127.0.0.1:4242',
    });
    expect(config.billing.provider).toBe('stripe');
    expect(config.billing.stripe).toEqual({ secretKey: KEY, webhookSecret: SECRET, api: { host: '127.0.0.1', port: 4242, protocol: 'http' } });
    expect(loadConfig({ DATA_DIR: dataDir(), STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET }).billing.stripe?.api).toBeNull();
  });

  it('stops the start naming what is missing or wrong, never showing a secret', () => {
    const messages = [
      configErrorOf(dataDir, { BILLING_PROVIDER: 'stripe' }),
      configErrorOf(dataDir, { STRIPE_SECRET_KEY: KEY }),
      configErrorOf(dataDir, { STRIPE_WEBHOOK_SECRET: SECRET }),
      configErrorOf(dataDir, { STRIPE_API_BASE: 'http://127.0.0.1:4242' }),
      configErrorOf(dataDir, { STRIPE_SECRET_KEY: 'pk_test_public', STRIPE_WEBHOOK_SECRET: SECRET }),
      configErrorOf(dataDir, { BILLING_PROVIDER: 'paypal' }),
    ];
    expect(messages[0]).toMatch(/STRIPE_SECRET_KEY: required when BILLING_PROVIDER is stripe/);
    expect(messages[1]).toMatch(/STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set/);
    expect(messages[2]).toMatch(/STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET is set/);
    expect(messages[3]).toMatch(/STRIPE_SECRET_KEY: required when STRIPE_API_BASE is set/);
    expect(messages[4]).toMatch(/STRIPE_SECRET_KEY: must be a Stripe secret or restricted key/);
    expect(messages[5]).toMatch(/BILLING_PROVIDER/);
    for (const message of messages) {
      expect(message).not.toContain('secret_value');
      expect(message).not.toContain('pk_test_public');
    }
  });
});
