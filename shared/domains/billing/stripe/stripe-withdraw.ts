import Stripe from 'stripe';
import type { ProviderDeps } from '../providers/payment-provider.ts';
import type { InvoiceRow } from '../rows.ts';
import { requireStripe, stripeClient } from './stripe-client.ts';

/**
 * A voided invoice's PaymentIntent is cancelled (Stripe's `abandoned`), so a customer still on the
 * payment page cannot pay what is no longer owed. Stripe refuses to cancel one that succeeded:
 * then the money came first, and `already_paid` tells the caller to alert the operators. Other
 * Stripe errors are thrown (the caller logs them without the key).
 */
export async function cancelPaymentIntent(invoice: InvoiceRow, deps: ProviderDeps): Promise<'withdrawn' | 'already_paid' | 'nothing'> {
  if (!invoice.provider_ref) return 'nothing';
  const stripe = stripeClient(requireStripe(deps.settings.stripe));
  try {
    await stripe.paymentIntents.cancel(invoice.provider_ref, { cancellation_reason: 'abandoned' }, { idempotencyKey: `berth-invoice-${invoice.id}-cancel` });
    return 'withdrawn';
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.code === 'payment_intent_unexpected_state') {
      const intent = await stripe.paymentIntents.retrieve(invoice.provider_ref);
      if (intent.status === 'succeeded') return 'already_paid';
      if (intent.status === 'canceled') return 'withdrawn';
    }
    throw error;
  }
}
