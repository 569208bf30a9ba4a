import type { InvoiceRow } from '../rows.ts';
import { requireStripe, stripeClient } from '../stripe/stripe-client.ts';
import { ensureStripeCustomer } from '../stripe/stripe-customers.ts';
import { chargeSavedCard } from '../stripe/stripe-retry.ts';
import { refundPayment } from '../stripe/stripe-refunds.ts';
import { cancelPaymentIntent } from '../stripe/stripe-withdraw.ts';
import type { CreditNoteRow } from '../rows.ts';
import type { Collection, PaymentProvider, ProviderDeps, RefundOutcome, RetryOutcome } from './payment-provider.ts';

/**
 * Card payments through Stripe: one PaymentIntent per invoice, for its total in its currency, on the
 * team's Stripe customer, with `metadata: {invoice_id, team_id}`. The panel confirms it with the
 * client secret; Stripe's signed webhook (`payment_intent.succeeded`) marks the invoice paid. The
 * idempotency key is derived from the invoice, so collecting twice returns the same PaymentIntent.
 * Dunning retries confirm that PaymentIntent with the customer's saved card (stripe-retry.ts).
 */
export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  async collect(invoice: InvoiceRow, deps: ProviderDeps): Promise<Collection> {
    // Nothing to charge (an upgrade at the same price): Stripe refuses a zero amount; the caller marks it paid.
    if (invoice.total_minor === 0) return { outcome: 'paid', reference: null };
    const stripe = stripeClient(requireStripe(deps.settings.stripe));
    const customer = await ensureStripeCustomer(deps.db, stripe, invoice.team_id, invoice.id);
    const intent = await stripe.paymentIntents.create(
      {
        amount: invoice.total_minor,
        currency: invoice.currency.toLowerCase(),
        customer,
        description: `Invoice ${invoice.number ?? invoice.id}`,
        metadata: { invoice_id: String(invoice.id), team_id: String(invoice.team_id), invoice_number: invoice.number ?? '' },
        automatic_payment_methods: { enabled: true },
      },
      { idempotencyKey: `berth-invoice-${invoice.id}-payment-intent` },
    );
    // Kept so a webhook's PaymentIntent can be matched to the one made for this invoice.
    await deps.db('invoices').where({ id: invoice.id }).whereNull('provider_ref').update({ provider_ref: intent.id });
    if (!intent.client_secret) throw new Error(`Stripe answered PaymentIntent ${intent.id} without a client secret`);
    return { outcome: 'pending', instructions: this.paymentInstructions(invoice)!, stripe: { paymentIntentId: intent.id, clientSecret: intent.client_secret } };
  },
  async retry(invoice: InvoiceRow, deps: ProviderDeps, attempt: { number: number }): Promise<RetryOutcome> {
    return chargeSavedCard(invoice, deps, attempt, async () => {
      const collection = await this.collect(invoice, deps);
      if (collection.outcome !== 'pending' || !collection.stripe) throw new Error(`invoice ${invoice.id} has nothing to charge`);
      return collection.stripe.paymentIntentId;
    });
  },
  refund(creditNote: CreditNoteRow, invoice: InvoiceRow, deps: ProviderDeps): Promise<RefundOutcome> {
    return refundPayment(creditNote, invoice, deps);
  },
  withdraw(invoice: InvoiceRow, deps: ProviderDeps) {
    return cancelPaymentIntent(invoice, deps);
  },
  paymentInstructions(invoice: InvoiceRow): string {
    return `Pay invoice ${invoice.number ?? ''} by card in the panel; it is marked paid as soon as Stripe confirms the payment.`;
  },
};
