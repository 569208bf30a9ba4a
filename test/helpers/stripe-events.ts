import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Reply } from './client.ts';
import type { Stack } from './stack.ts';

const signer = new Stripe('sk_test_signer_only').webhooks;

/** An event of `type` carrying `object`, as Stripe sends it (the API version Berth's webhook expects). */
export function stripeEvent(type: string, object: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  };
}

/** A PaymentIntent as Stripe reports it once paid (with `changes` on top). */
export function succeededIntent(intent: Record<string, any>, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...intent, status: 'succeeded', amount_received: intent.amount, ...changes };
}

/** How an event is signed: with the stack's own webhook secret unless told; a `header` replaces the signature (null: none). */
export type Signing = { secret?: string; timestamp?: number; header?: string | null };

/**
 * Posts an event to the stack's Stripe webhook as Stripe does: JSON bytes (indented, so only a
 * check of the raw body verifies) and their `Stripe-Signature` from the `stripe` package's signer.
 */
export function deliverStripeEvent(stack: Stack, event: Record<string, unknown>, signing: Signing = {}): Promise<Reply> {
  const payload = JSON.stringify(event, null, 2);
  const secret = signing.secret ?? stack.ctx.config.billing.stripe!.webhookSecret;
  const header =
    signing.header !== undefined
      ? signing.header
      : signer.generateTestHeaderString({ payload, secret, ...(signing.timestamp ? { timestamp: signing.timestamp } : {}) });
  return stack.client().request('POST', '/v1/billing/stripe/webhook', {
    raw: payload,
    contentType: 'application/json; charset=utf-8',
    headers: header === null ? {} : { 'stripe-signature': header },
  });
}
