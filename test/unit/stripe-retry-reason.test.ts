import { describe, expect, it } from 'vitest';
import { withoutSecrets } from '../../shared/domains/billing/stripe/stripe-retry.ts';

describe('the reason of a failed Stripe charge', () => {
  it("keeps Stripe's words and drops keys, masked keys and client secrets", () => {
    expect(withoutSecrets('Your card was declined.', 'sk_test_abc')).toBe('Your card was declined.');
    expect(withoutSecrets('Invalid API Key provided: sk_test_abc', 'sk_test_abc')).toBe('Invalid API Key provided: [redacted]');
    expect(withoutSecrets('Invalid API Key provided: sk_live_****1234', 'sk_test_abc')).toBe('Invalid API Key provided: [redacted]');
    expect(withoutSecrets('rk_test_51Hx and pi_3Nab_secret_XyZ', undefined)).toBe('[redacted] and [redacted]');
    expect(withoutSecrets('x'.repeat(600), undefined)).toHaveLength(500);
  });
});
