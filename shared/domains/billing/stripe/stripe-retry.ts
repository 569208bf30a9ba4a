import Stripe from 'stripe';
import type { InvoiceRow } from '../rows.ts';
import type { ProviderDeps, RetryOutcome } from '../providers/payment-provider.ts';
import { requireStripe, stripeClient } from './stripe-client.ts';

const NO_SAVED_CARD: RetryOutcome = { outcome: 'charge_failed', reason: 'no saved card' };

/**
 * A dunning attempt with Stripe: the invoice's PaymentIntent is confirmed off-session with the
 * customer's saved default card (`invoice_settings.default_payment_method`). A decline, or any error
 * Stripe answers, is a failed charge in Stripe's words; the key never reaches the reason. The
 * idempotency key names the attempt, so a repeated call confirms once. `intentOf` makes the invoice's
 * PaymentIntent when its collection never got one.
 */
export async function chargeSavedCard(
  invoice: InvoiceRow,
  deps: ProviderDeps,
  attempt: { number: number },
  intentOf: () => Promise<string>,
): Promise<RetryOutcome> {
  const config = requireStripe(deps.settings.stripe);
  const stripe = stripeClient(config);
  try {
    const stored = (await deps.db('stripe_customers').where({ team_id: invoice.team_id }).first('customer_id')) as { customer_id: string } | undefined;
    if (!stored) return NO_SAVED_CARD;
    const customer = await stripe.customers.retrieve(stored.customer_id);
    const saved = customer.deleted ? null : customer.invoice_settings?.default_payment_method;
    const paymentMethod = typeof saved === 'string' ? saved : (saved?.id ?? null);
    if (!paymentMethod) return NO_SAVED_CARD;
    const intent = await stripe.paymentIntents.confirm(
      invoice.provider_ref ?? (await intentOf()),
      { payment_method: paymentMethod, off_session: true },
      { idempotencyKey: `berth-invoice-${invoice.id}-dunning-${attempt.number}` },
    );
    return outcomeOf(intent);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    // Paid meanwhile (the customer in the panel, before its webhook arrived): confirming again is refused.
    if (error.payment_intent?.status === 'succeeded') return { outcome: 'charge_succeeded', reference: error.payment_intent.id };
    return { outcome: 'charge_failed', reason: withoutSecrets(error.message, config.secretKey) };
  }
}

function outcomeOf(intent: Stripe.PaymentIntent): RetryOutcome {
  if (intent.status === 'succeeded') return { outcome: 'charge_succeeded', reference: intent.id };
  // Some methods (bank debits) settle later: payment_intent.succeeded or .payment_failed will tell.
  if (intent.status === 'processing') return { outcome: 'charge_pending' };
  const reason =
    intent.last_payment_error?.message ??
    (intent.status === 'requires_action' ? 'the bank asks the card holder to confirm the payment' : `the payment was not completed (${intent.status})`);
  return { outcome: 'charge_failed', reason };
}

/** Stripe masks keys in its messages (`sk_test_****1234`); the reason is shown to customers, so even that goes. */
export function withoutSecrets(message: string, secretKey: string | undefined): string {
  return (secretKey ? message.split(secretKey).join('[redacted]') : message)
    .replace(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9*]+/g, '[redacted]')
    .replace(/\b(pi|seti)_[A-Za-z0-9]+_secret_[A-Za-z0-9]+/g, '[redacted]')
    .slice(0, 500);
}
