import Stripe from 'stripe';
import type { StripeConfig } from '../../../config/config.ts';

/** How long a signed webhook stays acceptable after Stripe signed it (Stripe's own default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * A client for the configured account. `api` points it at a stand-in instead of api.stripe.com (the
 * tests'); no retries of its own: a failed call fails the request, and the idempotency keys make the
 * caller's retry safe.
 */
export function stripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 0,
    timeout: 20_000,
    ...(config.api ? { host: config.api.host, port: config.api.port, protocol: config.api.protocol } : {}),
  });
}

/** The Stripe account, or a clear error when an invoice names the Stripe provider but none is configured. */
export function requireStripe(config: StripeConfig | null | undefined): StripeConfig {
  if (!config) throw new Error('an invoice is collected by the Stripe provider, but STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set');
  return config;
}
